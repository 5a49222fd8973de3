#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A blocking TCP connection, optionally over TLS, for command-line tools and tests. TLS runs over memory BIOs
/// (``TLSConnection``, as on the server), and this connection moves the ciphertext with blocking reads and writes.
///
/// Used from one thread at a time.
public final class ClientConnection {
    private let descriptor: Int32
    private var context: TLSContext?
    private var tls: TLSConnection?
    /// Plaintext TLS decrypted that `read` has not returned yet.
    private var decrypted: [UInt8] = []
    /// The server sent close_notify.
    private var tlsClosed = false
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
        tls?.protocolVersion
    }

    /// Writes all of `bytes`.
    public func write(_ bytes: [UInt8]) throws {
        guard let tls else { return try sendAll(bytes) }
        var records: [UInt8] = []
        let failed = bytes.withUnsafeBytes { plaintext in
            withUnsafeTemporaryAllocation(byteCount: 32 * 1024, alignment: 16) { scratch in
                do {
                    try tls.writePlaintext(plaintext, scratch: scratch) { records.append(contentsOf: $0) }
                    return false
                } catch {
                    return true
                }
            }
        }
        if failed { throw ClientError("TLS write failed") }
        try sendAll(records)
    }

    /// Reads up to `maximum` bytes; an empty result means the server closed the connection.
    public func read(maximum: Int = 65_536) throws -> [UInt8] {
        guard let tls else { return try receive(maximum: maximum) }
        while decrypted.isEmpty, !tlsClosed {
            let status: TLSConnection.ReadStatus
            do {
                status = try withUnsafeTemporaryAllocation(byteCount: 32 * 1024, alignment: 16) { buffer in
                    try tls.readPlaintext(into: buffer) { decrypted.append(contentsOf: $0) }
                }
            } catch {
                throw ClientError("TLS read failed")
            }
            try sendTLSOutput()  // e.g. the answer to a key update
            if status == .closed { tlsClosed = true }
            guard decrypted.isEmpty, !tlsClosed else { break }
            let ciphertext = try receive(maximum: 65_536)
            if ciphertext.isEmpty { return [] }
            ciphertext.withUnsafeBytes { tls.receiveFromNetwork($0) }
        }
        let count = min(maximum, decrypted.count)
        defer { decrypted.removeFirst(count) }
        return Array(decrypted[..<count])
    }

    /// Sends TLS close_notify (if any) and closes the socket.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        if let tls {
            tls.shutdown()
            try? sendTLSOutput()
        }
        tls = nil
        context = nil
        _ = Glibc.close(descriptor)
    }

    private func startTLS(host: String, options: ClientTLSOptions) throws {
        let context: TLSContext
        let tls: TLSConnection
        do {
            context = try TLSContext(client: options)
            // A name is sent as SNI and, when verifying, required of the certificate; an IP literal is neither.
            let expected = options.verifiesCertificate && !TLSConnection.isIPAddress(host) ? host : nil
            tls = try TLSConnection(context: context, isServer: false, serverName: host, expectedHostName: expected)
        } catch {
            throw ClientError("cannot set up TLS: \(error)")
        }
        self.context = context
        self.tls = tls
        while true {
            let complete: Bool
            do {
                complete = try tls.handshake()
            } catch {
                if options.verifiesCertificate, let reason = tls.certificateRejection {
                    throw ClientError.certificateRejected(reason)
                }
                throw ClientError("TLS handshake failed: \(error.detail)")
            }
            try sendTLSOutput()
            if complete { return }
            let ciphertext = try receive(maximum: 65_536)
            if ciphertext.isEmpty { throw ClientError("TLS handshake failed: the server closed the connection") }
            ciphertext.withUnsafeBytes { tls.receiveFromNetwork($0) }
        }
    }

    /// Sends the ciphertext TLS produced, if any.
    private func sendTLSOutput() throws {
        if let output = tls?.takeNetworkOutput() { try sendAll(output) }
    }

    /// Writes all of `bytes` to the socket.
    private func sendAll(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                send(descriptor, buffer.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            }
            if written <= 0 {
                if errno == EINTR { continue }
                throw ClientError.system("write", errno)
            }
            offset += written
        }
    }

    /// Reads up to `maximum` bytes from the socket; an empty result means the server closed the connection.
    private func receive(maximum: Int) throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: maximum)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, maximum, 0) }
            if count > 0 { return Array(buffer[..<count]) }
            if count == 0 { return [] }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK { throw ClientError.timedOut }
            if errno == ECONNRESET { return [] }
            throw ClientError.system("read", errno)
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
