/// Receives one WebSocket's events, on the connection's serial queue.
public protocol WebSocketDelegate: AnyObject, Sendable {
    /// The 101 response was sent; the socket can send.
    func webSocketDidOpen(_ socket: WebSocket)
    func webSocket(_ socket: WebSocket, didReceiveText text: String)
    func webSocket(_ socket: WebSocket, didReceiveBinary bytes: [UInt8])
    /// The socket closed: `code` is the peer's close code, or `nil` when the connection ended without one.
    func webSocketDidClose(_ socket: WebSocket, code: WebSocketCloseCode?, reason: String)
    /// Buffered outbound bytes fell below the low watermark after exceeding the high one; `isWritable` is true.
    func webSocketDidDrain(_ socket: WebSocket)
}

extension WebSocketDelegate {
    public func webSocketDidOpen(_ socket: WebSocket) {}
    public func webSocket(_ socket: WebSocket, didReceiveBinary bytes: [UInt8]) {}
    public func webSocketDidDrain(_ socket: WebSocket) {}
}
