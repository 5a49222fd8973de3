package import RollboardCore

/// The server settings from `config/server.yaml`; every field has a default, so the file may be absent.
public struct ServerSettings: Sendable, Equatable {
    /// The address to listen on; `::` listens on every IPv4 and IPv6 address.
    public var host: String = Defaults.host
    /// The TCP port; `0` picks a free one.
    public var port: Int = Defaults.port
    /// The certificate and key files; `nil` means a self-signed pair generated in the data directory on first start.
    public var tls: TLSFiles?
    /// Where the store, the viewer keys, the generated certificate and the generated tokens live.
    public var dataDirectory: String = Defaults.dataDirectory
    public var limits = Limits()
    /// Values of the `Origin` header allowed to open a WebSocket; empty means the same host as the request.
    public var allowedOrigins: [String] = []
    /// Producer tokens from the file (see `ProducerTokens.resolve` for the environment and generated ones).
    public var producerTokens: [ProducerToken] = []
    /// Admin tokens from the file (see `AdminTokens.resolve` for the environment and generated ones): they manage
    /// viewer keys and read everything, and cannot write values.
    public var adminTokens: [String] = []
    /// Who may watch a dashboard that does not say: `public` (anyone who reaches the port) unless set to `key`.
    public var dashboardAccess: DashboardAccess = Defaults.dashboardAccess
    /// Seconds without a new value after which a tile shows as stale, unless the tile says otherwise; `nil` = never.
    public var staleAfter: Double?
    /// How many past values the store keeps per metric.
    public var historyLength: Int = Defaults.historyLength
    /// Seconds of raw changes each metric's series keeps (its rollups are kept 35 and 400 days).
    public var seriesRetention: Double = Defaults.seriesRetention
    /// Journal size in bytes above which the store compacts it into a snapshot.
    public var journalCompactionBytes: Int = Defaults.journalCompactionBytes
    /// Bytes the idempotency keys of the last day and their answers may take, on the journal and on Redis alike:
    /// past it the oldest keys are forgotten early.
    public var idempotencyMemoryBytes: Int = Defaults.idempotencyMemoryBytes
    /// Seconds a graceful shutdown (SIGTERM, SIGINT) may take before the process exits anyway.
    public var shutdownTimeout: Double = Defaults.shutdownTimeout
    /// The Redis that several nodes share their changes through; `nil` (the default) keeps them in this node's
    /// journal.
    public var redis: RedisSettings?

    public init() {}

    /// Paths of a TLS certificate chain and its private key, both PEM.
    public struct TLSFiles: Sendable, Equatable {
        public var certificate: String
        public var privateKey: String
    }

    /// Resource limits.
    public struct Limits: Sendable, Equatable {
        /// Largest request body accepted, in bytes.
        public var maxBodyBytes: Int = Defaults.maxBodyBytes
        /// Most concurrent connections (HTTP and WebSocket together).
        public var maxConnections: Int = Defaults.maxConnections
        /// Most concurrent connections from one client IP address; `0` = no limit per address.
        public var maxConnectionsPerAddress: Int = Defaults.maxConnectionsPerAddress
        /// Frames per second for a client that does not ask for a rate.
        public var defaultFPS: Int = Defaults.defaultFPS
        /// Highest frame rate a client may ask for.
        public var maxFPS: Int = Defaults.maxFPS
        /// Changes a tile's animation queue holds before the overflow collapses into one jump to the newest value.
        public var backlog: Int = Defaults.backlog
        /// Seconds a client may stay over its outbound high watermark before it is closed.
        public var slowClientTimeout: Double = Defaults.slowClientTimeout
        /// Buffered outbound bytes above which a client is skipped for a tick.
        public var outboundHighWatermark: Int = Defaults.outboundHighWatermark
        /// Buffered outbound bytes below which a skipped client gets frames again.
        public var outboundLowWatermark: Int = Defaults.outboundLowWatermark
        /// Write requests per second allowed per producer token (bursts of twice that); `0` = unlimited.
        public var producerRequestsPerSecond: Double = Defaults.producerRequestsPerSecond
        /// Most updates in one batch request.
        public var maxBatchUpdates: Int = Defaults.maxBatchUpdates
        /// Most entries a leaderboard holds (a replacement or the board an increment leaves).
        public var maxLeaderboardEntries: Int = Defaults.maxLeaderboardEntries
        /// Largest message a screen may send (after decompression); larger ones close it with 1009. Screens send
        /// only small control messages.
        public var maxClientMessageBytes: Int = Defaults.maxClientMessageBytes
        /// Seconds a write waits for the disk to confirm it before the producer gets 503 `commit_timeout`.
        public var commitTimeout: Double = Defaults.commitTimeout
        /// Messages per second a screen may send on average (bursts of three times that); beyond it, or with more
        /// than 16 of its messages waiting for the hub, the screen is closed with 1008.
        public var clientMessagesPerSecond: Double = Defaults.clientMessagesPerSecond

        public init() {}
    }

    /// Where the self-signed certificate and key go when `tls` is not configured.
    public var generatedCertificatePaths: TLSFiles {
        TLSFiles(
            certificate: dataDirectory + "/tls/certificate.pem",
            privateKey: dataDirectory + "/tls/private-key.pem"
        )
    }

    /// Where earlier versions kept the viewer keys, inside the data directory (imported into the change log once).
    /// The file viewer keys were kept in before they moved into the change log.
    public static let legacyViewerKeysFileName = "viewer-keys.json"

    public var legacyViewerKeysPath: String { dataDirectory + "/" + Self.legacyViewerKeysFileName }

    /// The store's directory inside the data directory.
    public var storeDirectory: String { dataDirectory + "/store" }
}
