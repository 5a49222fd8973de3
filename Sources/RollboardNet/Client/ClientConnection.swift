import COpenSSL

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A blocking TCP connection, optionally over TLS, for command-line tools and tests.
///
/// Used from one thread at a time.
public final class ClientConnection {
    private let descriptor: Int32
    private var context: TLSContext?
    private var ssl: OpaquePointer?
    private var isClosed = false

    /// Connects to `host:port` (a name or an IPv4/IPv6 literal) and, with `tls`, completes a TLS handshake.
    public init(host: String, port: Int, tls: ClientTLSOptions?, timeout: Double = 10) throws {
        descriptor = try Self.connect(host: host, port: port)
        var interval = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - Double(Int(timeout))) * 1_000_000))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
        if let tls {
            do {
                try startTLS(host: host, options: tls)
            } catch {
                close()
                throw error
            }
        }
    }

    deinit {
        close()
    }

    /// The negotiated TLS protocol name (e.g. `TLSv1.3`), or `nil` without TLS.
    public var tlsVersion: String? {
        ssl.map { String(cString: SSL_get_version($0)) }
    }

    /// Writes all of `bytes`.
    public func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written: Int = bytes.withUnsafeBytes { buffer in
                let pointer = buffer.baseAddress! + offset
                let remaining = bytes.count - offset
                if let ssl {
                    return Int(SSL_write(ssl, pointer, Int32(min(remaining, Int(Int32.max)))))
                }
                return send(descriptor, pointer, remaining, Int32(MSG_NOSIGNAL))
            }
            if written <= 0 {
                if ssl == nil, errno == EINTR { continue }
                throw ssl == nil ? ClientError.system("write", errno) : ClientError("TLS write failed")
            }
            offset += written
        }
    }

    /// Reads up to `maximum` bytes; an empty result means the server closed the connection.
    public func read(maximum: Int = 65_536) throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: maximum)
        while true {
            let count: Int = buffer.withUnsafeMutableBytes { raw in
                if let ssl {
                    return Int(SSL_read(ssl, raw.baseAddress, Int32(maximum)))
                }
                return recv(descriptor, raw.baseAddress, maximum, 0)
            }
            if count > 0 { return Array(buffer[..<count]) }
            if let ssl {
                let error = SSL_get_error(ssl, Int32(count))
                if error == SSL_ERROR_ZERO_RETURN { return [] }
                if error == SSL_ERROR_SYSCALL, errno == EAGAIN || errno == EWOULDBLOCK { throw ClientError.timedOut }
                if error == SSL_ERROR_SYSCALL, count == 0 { return [] }
                if error == SSL_ERROR_SYSCALL, errno == ECONNRESET { return [] }
                throw ClientError("TLS read failed (\(error))")
            }
            if count == 0 { return [] }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK { throw ClientError.timedOut }
            if errno == ECONNRESET { return [] }
            throw ClientError.system("read", errno)
        }
    }

    /// Sends TLS close_notify (if any) and closes the socket.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        if let ssl {
            SSL_shutdown(ssl)
            SSL_free(ssl)
        }
        ssl = nil
        context = nil
        _ = Glibc.close(descriptor)
    }

    private func startTLS(host: String, options: ClientTLSOptions) throws {
        let context: TLSContext
        do {
            context = try TLSContext(client: options)
        } catch {
            throw ClientError("cannot set up TLS: \(error)")
        }
        self.context = context
        guard let ssl = SSL_new(context.context) else { throw ClientError("cannot create a TLS session") }
        self.ssl = ssl
        if !host.contains(":"), !host.allSatisfy({ $0.isNumber || $0 == "." }) {
            _ = host.withCString { SSL_ctrl(ssl, SSL_CTRL_SET_TLSEXT_HOSTNAME, Int(TLSEXT_NAMETYPE_host_name), UnsafeMutableRawPointer(mutating: $0)) }
            if options.verifiesCertificate { _ = SSL_set1_host(ssl, host) }
        }
        SSL_set_fd(ssl, descriptor)
        guard SSL_connect(ssl) == 1 else {
            let code = ERR_get_error()
            let verification = SSL_get_verify_result(ssl)
            if options.verifiesCertificate, verification != X509_V_OK {
                throw ClientError.certificateRejected(String(cString: X509_verify_cert_error_string(verification)))
            }
            let reason = ERR_reason_error_string(code).map { String(cString: $0) } ?? "error \(code)"
            throw ClientError("TLS handshake failed: \(reason)")
        }
    }

    private static func connect(host: String, port: Int) throws -> Int32 {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        var results: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &results)
        guard status == 0, let first = results else {
            throw ClientError("cannot resolve \(host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(first) }
        var lastError: Int32 = 0
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let info = cursor {
            let descriptor = socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
            if descriptor >= 0 {
                if Glibc.connect(descriptor, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 {
                    var one: Int32 = 1
                    setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
                    return descriptor
                }
                lastError = errno
                _ = Glibc.close(descriptor)
            }
            cursor = info.pointee.ai_next
        }
        throw ClientError.system("cannot connect to \(host):\(port)", lastError)
    }
}

@available(*, unavailable)
extension ClientConnection: Sendable {}
