extension ServerConfiguration {
    /// The transport's limits when a server does not set them, written once: Rollboard's `server.yaml` starts from
    /// these too.
    public enum Defaults {
        /// Buffered outbound bytes above which a connection counts as backed up.
        public static let outboundHighWatermark = 256 * 1024
        /// Buffered outbound bytes below which a backed-up connection is writable again.
        public static let outboundLowWatermark = 64 * 1024
        public static let maxConnections = 10_000
        public static let maxConnectionsPerAddress = 256
    }
}
