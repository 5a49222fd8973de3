#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
internal import COpenSSL

/// One OpenSSL `SSL_CTX`: protocol versions, ciphers, ALPN and (for a server) the certificate and key.
///
/// Set up once in `init` and only read afterwards; every `TLSConnection` is created from it.
package final class TLSContext: @unchecked Sendable {  // The SSL_CTX is configured in init and never mutated; OpenSSL allows SSL_new from any thread.
    let context: OpaquePointer

    /// TLS 1.2 ECDHE suites with AEAD ciphers only; TLS 1.3 keeps OpenSSL's defaults (all AEAD).
    static let tls12Ciphers = [
        "ECDHE-ECDSA-AES128-GCM-SHA256", "ECDHE-RSA-AES128-GCM-SHA256",
        "ECDHE-ECDSA-AES256-GCM-SHA384", "ECDHE-RSA-AES256-GCM-SHA384",
        "ECDHE-ECDSA-CHACHA20-POLY1305", "ECDHE-RSA-CHACHA20-POLY1305",
    ].joined(separator: ":")

    /// A server context from a PEM certificate chain and key: TLS 1.2 minimum, AEAD ciphers, ALPN `http/1.1`,
    /// stateless session tickets, buffers released while idle.
    init(server configuration: TLSConfiguration) throws(TLSError) {
        try Self.checkReadable(configuration.certificateChainPath, what: "certificate chain")
        try Self.checkReadable(configuration.privateKeyPath, what: "private key")
        ERR_clear_error()
        guard let context = SSL_CTX_new(TLS_server_method()) else {
            throw .openSSL(.setupFailed, "SSL_CTX_new failed")
        }
        self.context = context
        try configureCommon(minimumVersion: TLS1_2_VERSION)
        _ = COpenSSL_SSL_CTX_set_options(context, COpenSSL_server_options())
        _ = COpenSSL_SSL_CTX_set_session_cache_mode(context, Int(SSL_SESS_CACHE_SERVER))
        SSL_CTX_set_alpn_select_cb(context, selectHTTP11, nil)

        guard SSL_CTX_use_certificate_chain_file(context, configuration.certificateChainPath) == 1 else {
            throw .openSSL(.invalidCertificate, "cannot load a PEM certificate chain from \(configuration.certificateChainPath)")
        }
        guard SSL_CTX_use_PrivateKey_file(context, configuration.privateKeyPath, SSL_FILETYPE_PEM) == 1 else {
            let error = TLSError.openSSL(.invalidPrivateKey, "cannot load a PEM private key from \(configuration.privateKeyPath)")
            if error.detail.contains("key values mismatch") {
                throw TLSError(.keyMismatch, "\(configuration.privateKeyPath) does not match the certificate in \(configuration.certificateChainPath)")
            }
            throw error
        }
        guard SSL_CTX_check_private_key(context) == 1 else {
            throw .openSSL(.keyMismatch, "\(configuration.privateKeyPath) does not match the certificate in \(configuration.certificateChainPath)")
        }
    }

    /// A client context (tests and benchmarks talk to the server with it); no certificate verification.
    init(clientMinimumVersion: Int32 = TLS1_2_VERSION, maximumVersion: Int32? = nil, alpn: [String] = ["http/1.1"]) throws(TLSError) {
        ERR_clear_error()
        guard let context = SSL_CTX_new(TLS_client_method()) else {
            throw .openSSL(.setupFailed, "SSL_CTX_new failed")
        }
        self.context = context
        if clientMinimumVersion < TLS1_2_VERSION {
            SSL_CTX_set_security_level(context, 0)
            guard SSL_CTX_set_cipher_list(context, "DEFAULT:@SECLEVEL=0") == 1 else {
                throw .openSSL(.setupFailed, "cannot allow legacy ciphers")
            }
        }
        guard COpenSSL_SSL_CTX_set_min_proto_version(context, clientMinimumVersion) == 1 else {
            throw .openSSL(.setupFailed, "cannot set the minimum protocol version")
        }
        if let maximumVersion, COpenSSL_SSL_CTX_set_max_proto_version(context, maximumVersion) != 1 {
            throw .openSSL(.setupFailed, "cannot set the maximum protocol version")
        }
        _ = COpenSSL_SSL_CTX_set_mode(context, Int(SSL_MODE_RELEASE_BUFFERS))
        if !alpn.isEmpty {
            let wire = alpn.flatMap { [UInt8($0.utf8.count)] + Array($0.utf8) }
            guard SSL_CTX_set_alpn_protos(context, wire, UInt32(wire.count)) == 0 else {
                throw .openSSL(.setupFailed, "cannot set ALPN protocols")
            }
        }
    }

    /// A client context that verifies the server's certificate as `options` say: against a PEM file of trusted
    /// certificates, against the system's trust store, or not at all. The server's name is checked per connection
    /// (`TLSConnection`'s `expectedHostName`).
    package convenience init(client options: ClientTLSOptions, alpn: [String] = []) throws(TLSError) {
        try self.init(alpn: alpn)
        guard options.verifiesCertificate else { return }
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
        if let path = options.trustedCertificatesPath {
            try Self.checkReadable(path, what: "trusted certificates")
            guard SSL_CTX_load_verify_locations(context, path, nil) == 1 else {
                throw .openSSL(.invalidCertificate, "cannot load trusted certificates from \(path)")
            }
        } else if SSL_CTX_set_default_verify_paths(context) != 1 {
            throw .openSSL(.setupFailed, "cannot load the system's trusted certificates")
        }
    }

    deinit {
        SSL_CTX_free(context)
    }

    private func configureCommon(minimumVersion: Int32) throws(TLSError) {
        guard COpenSSL_SSL_CTX_set_min_proto_version(context, minimumVersion) == 1 else {
            throw .openSSL(.setupFailed, "cannot set the minimum protocol version")
        }
        guard SSL_CTX_set_cipher_list(context, Self.tls12Ciphers) == 1 else {
            throw .openSSL(.setupFailed, "cannot set the TLS 1.2 cipher list")
        }
        _ = COpenSSL_SSL_CTX_set_mode(context, Int(SSL_MODE_RELEASE_BUFFERS))
    }

    /// Throws `missingFile` or `unreadableFile` with the path, before OpenSSL gives a vaguer reason.
    private static func checkReadable(_ path: String, what: String) throws(TLSError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let reason = String(cString: strerror(errno))
            if errno == ENOENT || errno == ENOTDIR {
                throw TLSError(.missingFile, "\(what) file \(path) does not exist")
            }
            throw TLSError(.unreadableFile, "\(what) file \(path) cannot be opened: \(reason)")
        }
        defer { close(fd) }
        var byte: UInt8 = 0
        errno = 0
        guard read(fd, &byte, 1) == 1 else {
            let reason = errno == 0 ? "it is empty" : String(cString: strerror(errno))
            throw TLSError(.unreadableFile, "\(what) file \(path) cannot be read: \(reason)")
        }
    }
}

/// ALPN selection: `http/1.1` when the client offers it; otherwise no ALPN (the client may still speak HTTP/1.1).
private let selectHTTP11: @convention(c) (
    OpaquePointer?, UnsafeMutablePointer<UnsafePointer<UInt8>?>?, UnsafeMutablePointer<UInt8>?,
    UnsafePointer<UInt8>?, UInt32, UnsafeMutableRawPointer?
) -> Int32 = { _, out, outLength, offered, offeredLength, _ in
    guard let out, let outLength, let offered else { return SSL_TLSEXT_ERR_NOACK }
    let wanted = Array("http/1.1".utf8)
    var index = 0
    while index < Int(offeredLength) {
        let length = Int(offered[index])
        let start = index + 1
        guard start + length <= Int(offeredLength) else { break }
        if length == wanted.count, (0..<length).allSatisfy({ offered[start + $0] == wanted[$0] }) {
            out.pointee = offered + start
            outLength.pointee = UInt8(length)
            return SSL_TLSEXT_ERR_OK
        }
        index = start + length
    }
    return SSL_TLSEXT_ERR_NOACK
}
