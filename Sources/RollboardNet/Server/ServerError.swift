/// A failure to start or run the server's listeners.
public struct ServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is; compare against the static members.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let description: String

        /// Another socket is already bound to the address and port.
        public static let addressInUse = Code(description: "address in use")
        /// The host is not an address of this machine, or cannot be resolved.
        public static let addressUnavailable = Code(description: "address unavailable")
        /// The process may not bind the port (privileged port, or denied by policy).
        public static let permissionDenied = Code(description: "permission denied")
        /// A socket call failed for another reason.
        public static let socketFailed = Code(description: "socket call failed")
        /// `start()` was called on a server that was already started or shut down.
        public static let invalidState = Code(description: "invalid server state")
    }

    public let code: Code
    /// Details for a human: the address involved and the system's reason.
    public let detail: String

    public init(_ code: Code, _ detail: String) {
        self.code = code
        self.detail = detail
    }

    public var description: String { "\(code): \(detail)" }
}
