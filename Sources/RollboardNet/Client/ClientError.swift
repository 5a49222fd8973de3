/// Why a client connection failed.
public struct ClientError: Error, CustomStringConvertible, Equatable {
    public let description: String
    /// Whether the TLS handshake failed because the server's certificate did not verify (signed by no trusted
    /// certificate, expired, or for another name), as opposed to the server being unreachable or misbehaving.
    public let isCertificateRejected: Bool

    package init(_ description: String, isCertificateRejected: Bool = false) {
        self.description = description
        self.isCertificateRejected = isCertificateRejected
    }

    static func system(_ what: String, _ code: Int32) -> ClientError {
        ClientError("\(what): \(String(cString: strerror(code)))")
    }

    /// The server's certificate did not verify; `reason` is OpenSSL's, e.g. `self-signed certificate`.
    package static func certificateRejected(_ reason: String) -> ClientError {
        ClientError("TLS handshake failed: certificate verify failed (\(reason))", isCertificateRejected: true)
    }

    package static let timedOut = ClientError("timed out waiting for the server")
    package static let closedEarly = ClientError("the server closed the connection before the reply was complete")
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
