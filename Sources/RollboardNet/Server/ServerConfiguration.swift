#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Everything the server needs to listen, speak TLS, parse HTTP and run WebSockets; each field has a default.
public struct ServerConfiguration: Sendable {
    /// The address to listen on: `::` (the default) listens dual-stack on IPv6 and IPv4, `0.0.0.0` on IPv4 only,
    /// a name such as `localhost` on each address it resolves to.
    public var host: String
    /// The TCP port; 0 lets the system choose (read `Server.localPort` after `start()`).
    public var port: Int
    /// The listen backlog.
    public var backlog: Int
    /// Certificate and key for TLS, or `nil` for plain TCP (behind a TLS-terminating proxy).
    public var tls: TLSConfiguration?
    /// Limits on request lines, headers and bodies.
    public var http: HTTPParserLimits
    /// How many pipelined requests may await their responses before the connection stops reading.
    public var maxPipelinedRequests: Int
    /// WebSocket limits, keepalive timers and permessage-deflate settings.
    public var webSocket: WebSocketConfiguration
    /// A request not complete within this time after its first byte is answered 408 and the connection closed.
    public var requestHeadTimeout: Duration
    /// A keep-alive connection with no request in progress is closed after this long.
    public var idleTimeout: Duration
    /// A TLS handshake not complete within this time is abandoned.
    public var tlsHandshakeTimeout: Duration
    /// How long a closing connection may go without the peer taking any of its last bytes, or without closing once
    /// they are all sent.
    public var closeTimeout: Duration
    /// Above this many buffered outbound bytes a connection is not writable (`WebSocket.isWritable` is false).
    public var outboundHighWatermark: Int
    /// Below this many buffered outbound bytes a connection is writable again (`webSocketDidDrain`).
    public var outboundLowWatermark: Int
    /// A connection whose buffered outbound bytes exceed this is dropped: its peer is not reading.
    public var maxOutboundBytes: Int
    /// How many loop queues carry the connections; 0 (the default) means one per active processor.
    public var loopCount: Int
    /// The most connections open at once; a connection accepted beyond it is closed at once (after a 503 on a
    /// plain-HTTP server).
    public var maxConnections: Int
    /// The most connections open at once from one client IP address (an IPv4-mapped IPv6 address counts as its
    /// IPv4 address); 0 means no limit. Beyond it a connection is refused like one beyond `maxConnections`.
    /// Behind a proxy every client shares the proxy's address.
    public var maxConnectionsPerAddress: Int

    public init(
        host: String = "::",
        port: Int,
        backlog: Int = 1024,
        tls: TLSConfiguration? = nil,
        http: HTTPParserLimits = HTTPParserLimits(),
        maxPipelinedRequests: Int = 16,
        webSocket: WebSocketConfiguration = WebSocketConfiguration(),
        requestHeadTimeout: Duration = .seconds(10),
        idleTimeout: Duration = .seconds(60),
        tlsHandshakeTimeout: Duration = .seconds(10),
        closeTimeout: Duration = .seconds(5),
        outboundHighWatermark: Int = Defaults.outboundHighWatermark,
        outboundLowWatermark: Int = Defaults.outboundLowWatermark,
        maxOutboundBytes: Int = 64 * 1024 * 1024,
        loopCount: Int = 0,
        maxConnections: Int = Defaults.maxConnections,
        maxConnectionsPerAddress: Int = Defaults.maxConnectionsPerAddress
    ) {
        self.host = host
        self.port = port
        self.backlog = backlog
        self.tls = tls
        self.http = http
        self.maxPipelinedRequests = max(1, maxPipelinedRequests)
        self.webSocket = webSocket
        self.requestHeadTimeout = requestHeadTimeout
        self.idleTimeout = idleTimeout
        self.tlsHandshakeTimeout = tlsHandshakeTimeout
        self.closeTimeout = closeTimeout
        self.outboundHighWatermark = outboundHighWatermark
        self.outboundLowWatermark = outboundLowWatermark
        self.maxOutboundBytes = maxOutboundBytes
        self.loopCount = loopCount
        self.maxConnections = maxConnections
        self.maxConnectionsPerAddress = max(0, maxConnectionsPerAddress)
    }

    /// The loops' shared timer ticks often enough to honour the shortest timeout to within about a quarter of it.
    var tickInterval: Duration {
        let shortest = min(
            requestHeadTimeout, idleTimeout, tlsHandshakeTimeout, closeTimeout, webSocket.closeTimeout,
            webSocket.messageTimeout)
        return max(.milliseconds(50), min(.seconds(1), shortest / 4))
    }

    var effectiveLoopCount: Int {
        loopCount > 0 ? loopCount : max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    }

    var connectionOptions: Connection.Options {
        var options = Connection.Options()
        options.highWatermark = outboundHighWatermark
        options.lowWatermark = min(outboundLowWatermark, outboundHighWatermark)
        options.maxBufferedBytes = max(maxOutboundBytes, outboundHighWatermark)
        options.tlsHandshakeTimeout = tlsHandshakeTimeout
        options.closeTimeout = closeTimeout
        return options
    }
}
