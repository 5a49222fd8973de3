/// Why a client connection failed.
public struct ClientError: Error, CustomStringConvertible, Equatable {
    public let description: String

    init(_ description: String) {
        self.description = description
    }

    static func system(_ what: String, _ code: Int32) -> ClientError {
        ClientError("\(what): \(String(cString: strerror(code)))")
    }

    static let timedOut = ClientError("timed out waiting for the server")
    static let closedEarly = ClientError("the server closed the connection before the reply was complete")
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
