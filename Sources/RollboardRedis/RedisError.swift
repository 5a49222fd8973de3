/// Why a Redis connection or command failed (a `-ERR` reply is not one of these: it is `RedisReply.error`).
public struct RedisError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is; compare against the static members.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        public let description: String

        /// The server could not be resolved or reached, or did not answer within the connect timeout.
        public static let connectFailed = Kind(description: "connect failed")
        /// The connection ended (closed by this side or the server, or broken) before the reply came.
        public static let closed = Kind(description: "connection closed")
        /// A reply did not come within its command's timeout; the connection was closed.
        public static let timedOut = Kind(description: "timed out")
        /// The server sent something that is not RESP, or a reply over the size limit, or a reply nobody asked for.
        public static let protocolError = Kind(description: "protocol error")
        /// The server refused the connection's setup: `AUTH`, `SELECT` or `CLIENT SETNAME` returned an error.
        public static let authFailed = Kind(description: "authentication failed")
        /// The TLS handshake failed, e.g. the server's certificate did not verify.
        public static let tlsFailed = Kind(description: "TLS failed")
    }

    public var kind: Kind
    /// Details for a human; never contains the password.
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { "\(kind): \(message)" }

    public static func connectFailed(_ reason: String) -> RedisError { RedisError(.connectFailed, reason) }
    public static func closed(_ reason: String) -> RedisError { RedisError(.closed, reason) }
    public static let timedOut = RedisError(.timedOut, "no reply within the command's timeout")
    public static func protocolError(_ reason: String) -> RedisError { RedisError(.protocolError, reason) }
    public static func authFailed(_ reason: String) -> RedisError { RedisError(.authFailed, reason) }
    public static func tlsFailed(_ reason: String) -> RedisError { RedisError(.tlsFailed, reason) }
}
