public import RollboardNet

extension ServerSettings {
    /// A screen's own messages shorter than this go out uncompressed even when permessage-deflate is negotiated:
    /// setting up a compressor for a few dozen bytes costs more than sending them. The `hello` (the whole layout) is
    /// always above it. Frames of a stream are compressed once for all its screens, whatever their size.
    public static let minimumCompressedMessageBytes = 512

    /// The transport's configuration for these settings: address, limits (screens' message size among them),
    /// watermarks, connection caps, and compression that lets streams keep their context.
    /// `webhooks`' `POST /hooks/ID` take bodies up to their own `maxBodyBytes`, refused by `Content-Length` before
    /// they are read (as other requests are by `limits.maxBodyBytes`).
    public func transportConfiguration(
        tls: TLSConfiguration?, webhooks: [WebhookConfiguration] = []
    ) -> ServerConfiguration {
        var webSocket = WebSocketConfiguration(maxMessageBytes: limits.maxClientMessageBytes)
        webSocket.deflate?.minimumCompressedBytes = Self.minimumCompressedMessageBytes
        webSocket.deflate?.allowsServerContextTakeover = true
        var http = HTTPParserLimits(
            maxBodyBytes: limits.maxBodyBytes, maxBodyBytesSetting: "limits.maxBodyBytes in server.yaml")
        for webhook in webhooks {
            http.pathBodyLimits[WebhookConfiguration.pathPrefix + webhook.id] = webhook.maxBodyBytes
        }
        http.pathBodyLimitSetting = "maxBodyBytes in the webhook's file in config/webhooks/"
        return ServerConfiguration(
            host: host,
            port: port,
            tls: tls,
            http: http,
            webSocket: webSocket,
            outboundHighWatermark: limits.outboundHighWatermark,
            outboundLowWatermark: limits.outboundLowWatermark,
            maxConnections: limits.maxConnections,
            maxConnectionsPerAddress: limits.maxConnectionsPerAddress)
    }
}
