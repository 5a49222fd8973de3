internal import COpenSSL

/// A failure to set up TLS or to speak it with a peer.
public struct TLSError: CodedError {
    public typealias Code = ErrorCode<TLSError>

    public let code: Code
    /// Details for a human: the file involved and OpenSSL's own reason.
    public let detail: String

    public init(_ code: Code, _ detail: String) {
        self.code = code
        self.detail = detail
    }

    /// An error whose detail ends with the reasons on OpenSSL's error queue for this thread (the queue is emptied).
    static func openSSL(_ code: Code, _ detail: String) -> TLSError {
        let reasons = drainOpenSSLErrors()
        return TLSError(code, reasons.isEmpty ? detail : "\(detail) (\(reasons.joined(separator: "; ")))")
    }

    /// Empties this thread's OpenSSL error queue and returns its entries as text.
    static func drainOpenSSLErrors() -> [String] {
        var reasons: [String] = []
        while case let error = ERR_get_error(), error != 0 {
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(error, &buffer, buffer.count)
            reasons.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return reasons
    }
}

extension ErrorCode where Domain == TLSError {
    /// A certificate or key file does not exist.
    public static var missingFile: Self { Self(description: "missing file") }
    /// A certificate or key file exists but cannot be read.
    public static var unreadableFile: Self { Self(description: "unreadable file") }
    /// The certificate file holds no usable PEM certificate chain.
    public static var invalidCertificate: Self { Self(description: "invalid certificate") }
    /// The key file holds no usable PEM private key.
    public static var invalidPrivateKey: Self { Self(description: "invalid private key") }
    /// The private key does not belong to the leaf certificate.
    public static var keyMismatch: Self { Self(description: "key does not match certificate") }
    /// OpenSSL refused a context or connection setting.
    public static var setupFailed: Self { Self(description: "TLS setup failed") }
    /// The peer and the server could not agree, or the peer broke the protocol.
    public static var handshakeFailed: Self { Self(description: "TLS handshake failed") }
    /// A record could not be decrypted or the stream broke after the handshake.
    public static var protocolError: Self { Self(description: "TLS protocol error") }
    /// A self-signed certificate could not be generated or written.
    public static var certificateGenerationFailed: Self { Self(description: "certificate generation failed") }
}
