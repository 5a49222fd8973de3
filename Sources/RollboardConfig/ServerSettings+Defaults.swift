package import RollboardCore
import RollboardNet

extension ServerSettings {
    /// What a setting is when `server.yaml` leaves it out, each written here only: the settings' initial values, the
    /// YAML reader, `rollboard serve --help`, `rollboard push`'s defaults and the tests refer to these, and a test
    /// checks docs/configuration.md and config/server.yaml against them.
    public enum Defaults {
        public static let host = "::"
        public static let port = 8443
        public static let dataDirectory = ".data"
        public static let dashboardAccess = DashboardAccess.everyone
        public static let historyLength = 100
        /// Seconds of raw changes each metric's series keeps: 48 hours.
        public static let seriesRetention = 172_800.0
        public static let journalCompactionBytes = 8 << 20
        /// Bytes of idempotency keys and their answers remembered at once (64 MiB); past it the oldest go first.
        public static let idempotencyMemoryBytes = 64 << 20
        public static let shutdownTimeout = 10.0
        /// Seconds a stopping node gives its hubs to close every screen with 1001 (within `shutdownTimeout`; not a
        /// `server.yaml` setting).
        public static let screenCloseTimeout = 2.0
        /// Seconds over which screens running an older page than the one a node serves (after an upgrade) spread their
        /// reloads, each at a random moment within them, so a wall does not load the page at once (not a `server.yaml`
        /// setting: `rollboard serve --page-reload-spread`).
        public static let pageReloadSpread = 30.0
    }
}

extension ServerSettings.Limits {
    /// What a limit is when `server.yaml` leaves it out (see ``ServerSettings/Defaults``); the transport's own limits
    /// are the transport's defaults (``ServerConfiguration/Defaults``).
    public enum Defaults {
        public static let maxBodyBytes = 65_536
        public static let maxConnections = ServerConfiguration.Defaults.maxConnections
        public static let maxConnectionsPerAddress = ServerConfiguration.Defaults.maxConnectionsPerAddress
        public static let defaultFPS = 30
        public static let maxFPS = 60
        public static let backlog = 8
        public static let slowClientTimeout = 10.0
        public static let outboundHighWatermark = ServerConfiguration.Defaults.outboundHighWatermark
        public static let outboundLowWatermark = ServerConfiguration.Defaults.outboundLowWatermark
        public static let producerRequestsPerSecond = 0.0
        public static let maxBatchUpdates = 1_000
        public static let maxLeaderboardEntries = 1_000
        public static let maxClientMessageBytes = 4_096
        public static let commitTimeout = 10.0
        public static let clientMessagesPerSecond = 10.0
    }

    /// The frame rates a screen may get: `defaultFPS` and `maxFPS` lie in it, and no screen is driven faster.
    public static let fpsRange: ClosedRange<Int> = FrameRates.range
}

extension RedisSettings {
    /// What a `redis:` setting is when `server.yaml` leaves it out (see ``ServerSettings/Defaults``).
    public enum Defaults {
        public static let keyPrefix = "rollboard"
        public static let streamLength = 100_000
    }
}

extension DisplayText {
    /// How long a name or a text a screen draws may be (see ``ServerSettings/Defaults``): in characters, what a reader
    /// counts, and in UTF-8 bytes, four per character at most on average, so that any 100 names' or 500 texts'
    /// characters fit but a character stacked with combining marks does not.
    public enum Defaults {
        public static let nameCharacters = 100
        public static let nameBytes = 400
        public static let textCharacters = 500
        public static let textBytes = 2_000
    }
}
