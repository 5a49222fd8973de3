/// What to do with a valid WebSocket upgrade request.
public enum WebSocketUpgradeDecision: Sendable {
    /// Switch protocols; `delegate` receives the socket's events.
    case accept(any WebSocketDelegate)
    /// Answer with this response instead (e.g. 403 for a bad origin, 404 for an unknown path).
    case refuse(HTTPResponse)
}
