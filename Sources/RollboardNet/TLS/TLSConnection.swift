#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
internal import COpenSSL

/// One TLS session over memory BIOs: the owner feeds it ciphertext from the network and sends on the ciphertext
/// it produces; OpenSSL never touches a socket, so the same code runs over a socket or entirely in memory.
///
/// Confined to its owner's queue.
package final class TLSConnection {
    /// What happened to the plaintext stream on a read.
    package enum ReadStatus: Equatable {
        /// Everything decryptable so far was delivered; more ciphertext is needed.
        case wantMore
        /// The peer sent close_notify: no more plaintext will come.
        case closed
    }

    /// Plaintext is written to OpenSSL at most this much at a time, so the outgoing memory BIO stays small.
    static let writeSlice = 64 * 1024

    private let ssl: OpaquePointer
    /// Ciphertext from the network, read by OpenSSL.
    private let networkIn: OpaquePointer
    /// Ciphertext produced by OpenSSL, to be sent to the network.
    private let networkOut: OpaquePointer
    package private(set) var isHandshakeComplete = false
    private var sentCloseNotify = false

    /// A connection from `context`: the server side accepts, the client side connects, sending `serverName` as SNI
    /// unless it is an IP literal (RFC 6066 allows only host names there). With `expectedHostName`, a client accepts
    /// only a certificate for that name or IP address (when its context verifies certificates at all).
    package init(
        context: TLSContext, isServer: Bool = true, serverName: String? = nil, expectedHostName: String? = nil
    ) throws(TLSError) {
        ERR_clear_error()
        guard let ssl = SSL_new(context.context) else {
            throw .openSSL(.setupFailed, "SSL_new failed")
        }
        guard let networkIn = BIO_new(BIO_s_mem()), let networkOut = BIO_new(BIO_s_mem()) else {
            SSL_free(ssl)
            throw .openSSL(.setupFailed, "BIO_new failed")
        }
        SSL_set_bio(ssl, networkIn, networkOut)
        if isServer {
            SSL_set_accept_state(ssl)
        } else {
            SSL_set_connect_state(ssl)
            if let serverName, !Self.isIPAddress(serverName) {
                _ = COpenSSL_SSL_set_tlsext_host_name(ssl, serverName)
            }
            // SSL_set1_host takes an IP literal as an address to match (OpenSSL 3), anything else as a DNS name.
            if let expectedHostName, SSL_set1_host(ssl, expectedHostName) != 1 {
                SSL_free(ssl)  // frees both BIOs
                throw .openSSL(.setupFailed, "cannot require the certificate to be for \(expectedHostName)")
            }
        }
        self.ssl = ssl
        self.networkIn = networkIn
        self.networkOut = networkOut
    }

    /// Whether `text` is an IPv4 or IPv6 literal.
    package static func isIPAddress(_ text: String) -> Bool {
        var address = in6_addr()
        return inet_pton(AF_INET, text, &address) == 1 || inet_pton(AF_INET6, text, &address) == 1
    }

    deinit {
        SSL_free(ssl)  // frees both BIOs
    }

    /// Hands ciphertext received from the network to OpenSSL.
    package func receiveFromNetwork(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        var offset = 0
        while offset < bytes.count {
            let written = BIO_write(networkIn, base + offset, Int32(min(bytes.count - offset, Int(Int32.max))))
            guard written > 0 else { return }
            offset += Int(written)
        }
    }

    /// Advances the handshake; `true` once it is complete. Output to send may be waiting in `takeNetworkOutput()`.
    package func handshake() throws(TLSError) -> Bool {
        if isHandshakeComplete { return true }
        ERR_clear_error()
        let result = SSL_do_handshake(ssl)
        if result == 1 {
            isHandshakeComplete = true
            return true
        }
        switch SSL_get_error(ssl, result) {
        case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE:
            return false
        default:
            throw .openSSL(.handshakeFailed, "handshake failed")
        }
    }

    /// Decrypts everything available, handing each plaintext piece to `deliver` (valid only during the call).
    package func readPlaintext(
        into buffer: UnsafeMutableRawBufferPointer,
        _ deliver: (UnsafeRawBufferPointer) throws -> Void
    ) throws -> ReadStatus {
        while true {
            ERR_clear_error()
            let count = SSL_read(ssl, buffer.baseAddress, Int32(buffer.count))
            if count > 0 {
                try deliver(UnsafeRawBufferPointer(rebasing: buffer[..<Int(count)]))
                continue
            }
            switch SSL_get_error(ssl, count) {
            case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE:
                return .wantMore
            case SSL_ERROR_ZERO_RETURN:
                return .closed
            default:
                throw TLSError.openSSL(.protocolError, "cannot read a TLS record")
            }
        }
    }

    /// Encrypts `bytes` and hands the records to `output`, read through `scratch`: each piece is valid only during
    /// the call.
    package func writePlaintext(
        _ bytes: UnsafeRawBufferPointer, scratch: UnsafeMutableRawBufferPointer,
        output: (UnsafeRawBufferPointer) -> Void
    ) throws(TLSError) {
        guard let base = bytes.baseAddress, let buffer = scratch.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            let length = min(bytes.count - offset, Self.writeSlice)
            // No ERR_clear_error first (it costs per frame): a failure here is not read with SSL_get_error.
            let written = SSL_write(ssl, base + offset, Int32(length))
            guard written > 0 else {
                ERR_clear_error()
                throw .openSSL(.protocolError, "cannot write a TLS record")
            }
            offset += Int(written)
            let capacity = Int32(min(scratch.count, Int(Int32.max)))
            while true {
                let read = BIO_read(networkOut, buffer, capacity)
                guard read > 0 else { break }
                output(UnsafeRawBufferPointer(start: buffer, count: Int(read)))
                if read < capacity { break }  // a memory BIO fills the buffer unless it ran dry
            }
        }
    }

    /// Queues close_notify (once); send what `takeNetworkOutput()` returns afterwards.
    package func shutdown() {
        guard isHandshakeComplete, !sentCloseNotify else { return }
        sentCloseNotify = true
        ERR_clear_error()
        _ = SSL_shutdown(ssl)
        ERR_clear_error()
    }

    /// Ciphertext OpenSSL produced that must go to the network, or `nil` if there is none.
    package func takeNetworkOutput() -> [UInt8]? {
        let pending = COpenSSL_BIO_pending(networkOut)
        guard pending > 0 else { return nil }
        return [UInt8](unsafeUninitializedCapacity: pending) { buffer, count in
            let read = BIO_read(networkOut, buffer.baseAddress, Int32(pending))
            count = max(0, Int(read))
        }
    }

    /// The protocol chosen by ALPN, if any.
    var negotiatedProtocol: String? {
        var data: UnsafePointer<UInt8>?
        var length: UInt32 = 0
        SSL_get0_alpn_selected(ssl, &data, &length)
        guard let data, length > 0 else { return nil }
        return String(decoding: UnsafeBufferPointer(start: data, count: Int(length)), as: UTF8.self)
    }

    /// The peer's certificate in DER form, once the handshake has received it.
    var peerCertificate: [UInt8]? {
        guard let certificate = SSL_get1_peer_certificate(ssl) else { return nil }
        defer { X509_free(certificate) }
        var output: UnsafeMutablePointer<UInt8>?
        let length = i2d_X509(certificate, &output)
        guard length > 0, let output else { return nil }
        defer { CRYPTO_free(output, #fileID, #line) }
        return Array(UnsafeBufferPointer(start: output, count: Int(length)))
    }

    /// Why the peer's certificate was rejected (OpenSSL's reason, e.g. `self-signed certificate`), or `nil` if it
    /// was not (verification off, or passed, or not reached yet).
    package var certificateRejection: String? {
        let result = SSL_get_verify_result(ssl)
        guard result != X509_V_OK else { return nil }
        return String(cString: X509_verify_cert_error_string(result))
    }

    /// The negotiated protocol version, e.g. `TLSv1.3`.
    package var protocolVersion: String {
        String(cString: SSL_get_version(ssl))
    }

    /// The negotiated cipher suite name.
    package var cipherName: String {
        guard let cipher = SSL_get_current_cipher(ssl) else { return "" }
        return String(cString: SSL_CIPHER_get_name(cipher))
    }
}

@available(*, unavailable)
extension TLSConnection: Sendable {}
