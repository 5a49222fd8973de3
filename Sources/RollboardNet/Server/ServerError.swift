/// A failure to start or run the server's listeners.
public struct ServerError: CodedError {
    public typealias Code = ErrorCode<ServerError>

    public let code: Code
    /// Details for a human: the address involved and the system's reason.
    public let detail: String

    public init(_ code: Code, _ detail: String) {
        self.code = code
        self.detail = detail
    }
}

extension ErrorCode where Domain == ServerError {
    /// Another socket is already bound to the address and port.
    public static var addressInUse: Self { Self(description: "address in use") }
    /// The host is not an address of this machine, or cannot be resolved.
    public static var addressUnavailable: Self { Self(description: "address unavailable") }
    /// The process may not bind the port (privileged port, or denied by policy).
    public static var permissionDenied: Self { Self(description: "permission denied") }
    /// A socket call failed for another reason.
    public static var socketFailed: Self { Self(description: "socket call failed") }
    /// `start()` was called on a server that was already started or shut down.
    public static var invalidState: Self { Self(description: "invalid server state") }
}
