/// What the connection must do after the protocol handler saw input, a timer or a close request.
enum WebSocketAction: Sendable, Equatable {
    /// A complete text message arrived.
    case deliverText(String)
    /// A complete binary message arrived.
    case deliverBinary([UInt8])
    /// Bytes to write to the peer, in order.
    case send([UInt8])
    /// Flush what was sent so far, then close the transport.
    case closeConnection
    /// The WebSocket is closed: tell the application once. `code` is the code of the close frame
    /// that started the closing (the peer's or ours), `nil` if the peer's close frame had none or the
    /// transport ended without a closing handshake.
    case didClose(code: WebSocketCloseCode?, reason: String)
}
