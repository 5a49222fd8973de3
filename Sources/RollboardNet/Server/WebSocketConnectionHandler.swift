/// WebSocket on one connection after the upgrade: runs the `WebSocketProtocolHandler`, carries out its actions
/// and calls the delegate.
///
/// Confined to the connection's queue.
final class WebSocketConnectionHandler: ConnectionHandler {
    let socket: WebSocket
    private let delegate: any WebSocketDelegate
    private var protocolHandler: WebSocketProtocolHandler
    /// The negotiated permessage-deflate parameters, which pick a prepared message's frame.
    private let deflate: PerMessageDeflateParameters?

    init(
        socket: WebSocket, delegate: any WebSocketDelegate, configuration: WebSocketConfiguration,
        deflate: PerMessageDeflateParameters?
    ) {
        self.socket = socket
        self.delegate = delegate
        self.protocolHandler = WebSocketProtocolHandler(configuration: configuration, deflate: deflate, now: .now)
        self.deflate = deflate
    }

    /// The 101 is queued: tells the delegate, then handles frames that arrived with the upgrade request.
    func open(_ connection: Connection, leftover: [UInt8]) {
        delegate.webSocketDidOpen(socket)
        if !leftover.isEmpty {
            perform(protocolHandler.receive(leftover), connection)
        }
    }

    func send(text: String, _ connection: Connection) {
        guard protocolHandler.isOpen else { return }
        connection.send(protocolHandler.encode(text: text))
    }

    func send(binary: [UInt8], _ connection: Connection) {
        guard protocolHandler.isOpen else { return }
        connection.send(protocolHandler.encode(binary: binary))
    }

    func send(_ message: PreparedMessage, _ connection: Connection) {
        guard protocolHandler.isOpen else { return }
        connection.send(message.frame(for: deflate))
    }

    func close(code: WebSocketCloseCode, reason: String, _ connection: Connection) {
        perform(protocolHandler.close(code: code.isValidOnTheWire ? code : .normalClosure, reason: reason), connection)
    }

    private func perform(_ actions: [WebSocketAction], _ connection: Connection) {
        for action in actions {
            switch action {
            case .deliverText(let text):
                delegate.webSocket(socket, didReceiveText: text)
            case .deliverBinary(let bytes):
                delegate.webSocket(socket, didReceiveBinary: bytes)
            case .send(let bytes):
                connection.send(bytes)
            case .closeConnection:
                connection.close()
            case .didClose(let code, let reason):
                delegate.webSocketDidClose(socket, code: code, reason: reason)
            }
        }
    }

    func connectionDidBecomeActive(_ connection: Connection) {}

    func connection(_ connection: Connection, didRead bytes: UnsafeRawBufferPointer) {
        perform(protocolHandler.receive(bytes), connection)
    }

    func connectionDidReadEOF(_ connection: Connection) {
        perform(protocolHandler.transportClosed(), connection)
        connection.close()
    }

    func connectionDidDrain(_ connection: Connection) {
        delegate.webSocketDidDrain(socket)
    }

    func connection(_ connection: Connection, tick now: ContinuousClock.Instant) {
        perform(protocolHandler.tick(now: now), connection)
    }

    func connectionShouldShutDown(_ connection: Connection) {
        close(code: .goingAway, reason: "server shutting down", connection)
    }

    func connectionDidClose(_ connection: Connection) {
        perform(protocolHandler.transportClosed(), connection)
    }
}

@available(*, unavailable)
extension WebSocketConnectionHandler: Sendable {}
