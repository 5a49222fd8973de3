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

    /// False while buffered outbound bytes exceed the high watermark; a sender should skip or coalesce until
    /// `webSocketDidDrain`.
    public var isWritable: Bool { connection.isWritable }

    /// Bytes queued for this socket's peer and not yet written to the network.
    public var bufferedBytes: Int { connection.bufferedBytes }
}
