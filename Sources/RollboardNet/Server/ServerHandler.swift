/// The layer above RollboardNet: answers HTTP requests and decides on WebSocket upgrades.
public protocol ServerHandler: Sendable {
    /// Called for every non-upgrade request on the connection's queue; `respond` must be called exactly once,
    /// from any queue (responses go out in request order even when pipelined).
    func handle(_ request: HTTPRequest, respond: @escaping @Sendable (HTTPResponse) -> Void)

    /// Called for a valid WebSocket upgrade request (handshake already validated by RollboardNet).
    func shouldUpgrade(_ request: HTTPRequest) -> WebSocketUpgradeDecision
}
