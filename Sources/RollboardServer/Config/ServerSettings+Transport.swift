public import RollboardNet

extension ServerSettings {
    /// Messages shorter than this go out uncompressed even when permessage-deflate is negotiated: a frame of a
    /// few tiles saves a few dozen bytes, and setting up a compressor for it costs more than sending them.
    /// The `hello` (the whole layout) is always above it.
    public static let minimumCompressedMessageBytes = 512

    /// The transport's configuration for these settings: address, limits (screens' message size among them),
    /// watermarks, connection caps.
    public func transportConfiguration(tls: TLSConfiguration?) -> ServerConfiguration {
        var webSocket = WebSocketConfiguration(maxMessageBytes: limits.maxClientMessageBytes)
        webSocket.deflate?.minimumCompressedBytes = Self.minimumCompressedMessageBytes
        return ServerConfiguration(
            host: host,
            port: port,
            tls: tls,
            http: HTTPParserLimits(maxBodyBytes: limits.maxBodyBytes),
            webSocket: webSocket,
            outboundHighWatermark: limits.outboundHighWatermark,
            outboundLowWatermark: limits.outboundLowWatermark,
            maxConnections: limits.maxConnections,
            maxConnectionsPerAddress: limits.maxConnectionsPerAddress)
    }
}

extension ServerSettings.Limits {
    /// What one screen may send before it is closed with 1008.
    var clientMessageLimits: ClientMessageGate.Limits {
        ClientMessageGate.Limits(perSecond: clientMessagesPerSecond, burst: clientMessagesPerSecond * 3, maxQueued: 16)
    }
}
