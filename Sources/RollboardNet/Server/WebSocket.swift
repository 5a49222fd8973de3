import Dispatch

/// One open WebSocket. Safe to use from any queue: sends hop to the connection's queue.
public final class WebSocket: Sendable {
    /// The upgrade request that opened this socket (path, query, headers).
    public let request: HTTPRequest
    /// Whether permessage-deflate was negotiated for this socket.
    public let isDeflateNegotiated: Bool
    let connection: Connection

    init(request: HTTPRequest, isDeflateNegotiated: Bool, connection: Connection) {
        self.request = request
        self.isDeflateNegotiated = isDeflateNegotiated
        self.connection = connection
    }

    /// The client's IP address (`127.0.0.1`, `::1`), as the socket sees it (a proxy's, behind one).
    public var remoteAddress: String? { connection.peerAddress?.description }

    /// False while buffered outbound bytes exceed the high watermark; a sender should skip or coalesce until
    /// `webSocketDidDrain`.
    public var isWritable: Bool { connection.isWritable }

    /// Bytes queued for this socket's peer and not yet written to the network.
    public var bufferedBytes: Int { connection.bufferedBytes }

    /// Sends a text message (compressed when deflate was negotiated and it pays off). Ignored once closing.
    public func send(text: String) {
        connection.execute { ($0.handler as? WebSocketConnectionHandler)?.send(text: text, $0) }
    }

    /// Sends a binary message. Ignored once closing.
    public func send(binary: [UInt8]) {
        connection.execute { ($0.handler as? WebSocketConnectionHandler)?.send(binary: binary, $0) }
    }

    /// Sends a message encoded once for many sockets: the same bytes go to every socket that can take them.
    public func send(_ message: PreparedMessage) {
        connection.execute { ($0.handler as? WebSocketConnectionHandler)?.send(message, $0) }
    }

    /// Sends `message` to every socket in `sockets`, with one hop to each event loop they are on rather than one per
    /// socket.
    public static func send(_ message: PreparedMessage, to sockets: [WebSocket]) {
        var byLoop: [(loop: EventLoop, connections: [Connection])] = []  // as many as the server has loops
        for socket in sockets {
            let loop = socket.connection.loop
            if let index = byLoop.firstIndex(where: { $0.loop === loop }) {
                byLoop[index].connections.append(socket.connection)
            } else {
                byLoop.append((loop, [socket.connection]))
            }
        }
        for (loop, connections) in byLoop {
            loop.queue.async {
                for connection in connections {
                    (connection.handler as? WebSocketConnectionHandler)?.send(message, connection)
                }
            }
        }
    }

    /// Starts the closing handshake with `code` (a code that may not be sent, such as 1006, becomes 1000).
    public func close(code: WebSocketCloseCode, reason: String = "") {
        connection.execute { ($0.handler as? WebSocketConnectionHandler)?.close(code: code, reason: reason, $0) }
    }
}
