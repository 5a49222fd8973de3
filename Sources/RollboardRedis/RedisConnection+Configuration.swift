public import RollboardNet

extension RedisConnection {
    /// Where to connect and how.
    public struct Configuration: Sendable {
        public var url: RedisURL
        /// How a `rediss://` connection verifies the server; unused for `redis://`. By default the certificate must
        /// be trusted by the system and be for the URL's host.
        public var tls: ClientTLSOptions
        /// Seconds for the whole connect: the TCP connect, the TLS handshake and the replies to `AUTH`, `SELECT`
        /// and `CLIENT SETNAME`.
        public var connectTimeout: Double
        /// Sent as `CLIENT SETNAME` once connected (shown by `CLIENT LIST`); must not contain spaces.
        public var name: String?

        public init(
            url: RedisURL, tls: ClientTLSOptions = ClientTLSOptions(), connectTimeout: Double = 2, name: String? = nil
        ) {
            self.url = url
            self.tls = tls
            self.connectTimeout = connectTimeout
            self.name = name
        }
    }
}
