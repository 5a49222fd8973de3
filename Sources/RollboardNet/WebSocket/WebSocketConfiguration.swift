/// Limits and timers for WebSocket connections.
public struct WebSocketConfiguration: Sendable {
    /// The largest message accepted, after reassembly and decompression; larger ones close with 1009.
    public var maxMessageBytes: Int
    /// The largest single frame accepted; `nil` means the message limit.
    public var maxFrameBytes: Int?
    /// How long the peer may stay silent before the server sends a keepalive ping.
    public var pingInterval: Duration
    /// How long the peer may stay silent before the server gives up on it (close 1001 "ping timeout").
    public var deadPeerTimeout: Duration
    /// How long the server waits for the peer's reply to its close frame before dropping the connection.
    public var closeTimeout: Duration
    /// How long a data message may take from its first frame to its final one; a message still unfinished after
    /// that fails the connection (close 1008). Control frames in between do not extend it.
    public var messageTimeout: Duration
    /// permessage-deflate settings; `nil` never negotiates compression.
    public var deflate: PerMessageDeflateConfiguration?

    public init(
        maxMessageBytes: Int = 1 << 20,
        maxFrameBytes: Int? = nil,
        pingInterval: Duration = .seconds(20),
        deadPeerTimeout: Duration = .seconds(60),
        closeTimeout: Duration = .seconds(5),
        messageTimeout: Duration = .seconds(10),
        deflate: PerMessageDeflateConfiguration? = PerMessageDeflateConfiguration()
    ) {
        self.maxMessageBytes = maxMessageBytes
        self.maxFrameBytes = maxFrameBytes
        self.pingInterval = pingInterval
        self.deadPeerTimeout = deadPeerTimeout
        self.closeTimeout = closeTimeout
        self.messageTimeout = messageTimeout
        self.deflate = deflate
    }

    /// The frame limit in force.
    var effectiveMaxFrameBytes: Int { min(maxFrameBytes ?? maxMessageBytes, maxMessageBytes) }
}
