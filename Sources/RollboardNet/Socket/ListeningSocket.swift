#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Logging

/// A non-blocking listening TCP socket and its accept loop.
///
/// The accept source runs on `queue`; `close()` must be called on that queue too.
final class ListeningSocket: @unchecked Sendable {  // Mutable state (the source, `closed`) is touched only on `queue`.
    let fd: Int32
    /// The port the socket is bound to (useful after binding port 0).
    let port: Int
    /// A description of the bound address for logs, e.g. `[::]:8443`.
    let addressDescription: String
    private let queue: DispatchQueue
    private let logger: Logger
    private var source: (any DispatchSourceRead)?
    private var isAcceptSuspended = false
    private var closed = false
    /// Pauses for descriptor exhaustion since the last warning, and when that warning was logged.
    private var exhaustionPauses = 0
    private var exhaustionLoggedAt: ContinuousClock.Instant?

    /// How long accepting pauses when the process or system is out of file descriptors.
    static let descriptorExhaustionPause: DispatchTimeInterval = .milliseconds(100)
    /// At most one warning about descriptor exhaustion per this interval, so exhaustion cannot flood the log.
    static let exhaustionLogInterval: Duration = .seconds(10)

    private init(fd: Int32, port: Int, addressDescription: String, queue: DispatchQueue, logger: Logger) {
        self.fd = fd
        self.port = port
        self.addressDescription = addressDescription
        self.queue = queue
        self.logger = logger
    }

    /// Binds and listens on every address `host` resolves to (IPv4 and IPv6), all on the same port.
    ///
    /// `::` listens dual-stack on one socket; `0.0.0.0` on IPv4 only; a name such as `localhost` on each of its
    /// addresses. With port 0 the kernel picks a free port for the first socket and the others reuse it.
    static func bind(
        host: String, port: Int, backlog: Int32, queue: DispatchQueue, logger: Logger
    ) throws(ServerError) -> [ListeningSocket] {
        var hints = addrinfo()
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = socketStreamType
        var results: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host.isEmpty ? nil : host, String(port), &hints, &results)
        guard status == 0, let results else {
            throw ServerError(.addressUnavailable, "cannot resolve \(host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(results) }

        var addresses: [UnsafeMutablePointer<addrinfo>] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = results
        while let entry = cursor {
            addresses.append(entry)
            cursor = entry.pointee.ai_next
        }
        // Bind IPv6 first so a wildcard `::` takes the dual-stack role.
        addresses.sort { $0.pointee.ai_family == AF_INET6 && $1.pointee.ai_family != AF_INET6 }
        let dualStack = addresses.count == 1 && addresses[0].pointee.ai_family == AF_INET6

        var sockets: [ListeningSocket] = []
        var chosenPort = port
        do throws(ServerError) {
            for entry in addresses {
                let socket = try open(
                    entry.pointee, port: chosenPort, v6Only: !dualStack, backlog: backlog, host: host,
                    queue: queue, logger: logger)
                chosenPort = socket.port
                sockets.append(socket)
            }
        } catch {
            for socket in sockets { Glibc.close(socket.fd) }
            throw error
        }
        return sockets
    }

    private static func open(
        _ info: addrinfo, port: Int, v6Only: Bool, backlog: Int32, host: String, queue: DispatchQueue, logger: Logger
    ) throws(ServerError) -> ListeningSocket {
        let fd = socket(info.ai_family, socketStreamType | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else {
            throw ServerError(.socketFailed, "socket(): \(errnoText())")
        }
        var one: Int32 = 1
        var v6OnlyValue: Int32 = v6Only ? 1 : 0
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        if info.ai_family == AF_INET6 {
            setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &v6OnlyValue, socklen_t(MemoryLayout<Int32>.size))
        }
        var storage = sockaddr_storage()
        withUnsafeMutableBytes(of: &storage) { target in
            target.copyMemory(from: UnsafeRawBufferPointer(start: info.ai_addr, count: Int(info.ai_addrlen)))
        }
        setPort(&storage, port)
        let bound = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd, $0, info.ai_addrlen) }
        }
        let description = describe(storage, port: port)
        guard bound == 0 else {
            let code = errno
            Glibc.close(fd)
            switch code {
            case EADDRINUSE: throw ServerError(.addressInUse, "\(description) is already in use")
            case EACCES, EPERM: throw ServerError(.permissionDenied, "may not bind \(description)")
            case EADDRNOTAVAIL: throw ServerError(.addressUnavailable, "\(host) is not an address of this machine")
            default: throw ServerError(.socketFailed, "bind(\(description)): \(String(cString: strerror(code)))")
            }
        }
        guard listen(fd, backlog) == 0 else {
            let text = errnoText()
            Glibc.close(fd)
            throw ServerError(.socketFailed, "listen(\(description)): \(text)")
        }
        var actual = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        let actualPort = portOf(actual)
        return ListeningSocket(
            fd: fd, port: actualPort, addressDescription: describe(actual, port: actualPort), queue: queue,
            logger: logger)
    }

    /// Starts accepting: every accepted descriptor (non-blocking, close-on-exec) goes to `accepted` on `queue`,
    /// with the peer's address when it is IPv4 or IPv6.
    ///
    /// The loop drains the backlog until it would block. When descriptors run out (EMFILE/ENFILE), accepting
    /// pauses briefly instead of spinning on a listener that stays readable.
    func startAccepting(_ accepted: @escaping (Int32, PeerAddress?) -> Void) {
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        source.setEventHandler { [weak self] in
            self?.acceptPending(accepted)
        }
        source.setCancelHandler { [fd] in
            Glibc.close(fd)
        }
        self.source = source
        source.resume()
    }

    private func acceptPending(_ accepted: (Int32, PeerAddress?) -> Void) {
        dispatchPrecondition(condition: .onQueue(queue))
        while !closed {
            var peer = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let client = withUnsafeMutablePointer(to: &peer) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { accept(fd, $0, &length) }
            }
            if client >= 0 {
                _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
                _ = fcntl(client, F_SETFD, FD_CLOEXEC)
                accepted(client, PeerAddress(peer))
                continue
            }
            switch errno {
            case EAGAIN, EWOULDBLOCK:
                return
            case EINTR, ECONNABORTED, EPROTO:
                continue
            case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                exhaustionPauses += 1
                let now = ContinuousClock.now
                if exhaustionLoggedAt.map({ now - $0 >= Self.exhaustionLogInterval }) ?? true {
                    logger.warning(
                        "out of file descriptors; pausing accept",
                        metadata: ["listener": "\(addressDescription)", "pauses": "\(exhaustionPauses)"])
                    exhaustionLoggedAt = now
                    exhaustionPauses = 0
                }
                pauseAccepting()
                return
            default:
                logger.error("accept failed", metadata: ["listener": "\(addressDescription)", "error": "\(errnoText())"])
                return
            }
        }
    }

    private func pauseAccepting() {
        guard let source, !isAcceptSuspended else { return }
        source.suspend()
        isAcceptSuspended = true
        queue.asyncAfter(deadline: .now() + Self.descriptorExhaustionPause) { [weak self] in
            guard let self, self.isAcceptSuspended else { return }
            self.isAcceptSuspended = false
            self.source?.resume()
        }
    }

    /// Stops accepting and closes the socket (once the source has been cancelled). Call on `queue`.
    func close() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard !closed else { return }
        closed = true
        guard let source else {
            Glibc.close(fd)
            return
        }
        if isAcceptSuspended {
            isAcceptSuspended = false
            source.resume()  // a suspended source must be resumed before it can be cancelled and released
        }
        source.cancel()
        self.source = nil
    }
}

let socketStreamType = Int32(SOCK_STREAM.rawValue)

func errnoText(_ code: Int32 = errno) -> String {
    String(cString: strerror(code))
}

private func setPort(_ storage: inout sockaddr_storage, _ port: Int) {
    withUnsafeMutablePointer(to: &storage) { pointer in
        switch Int32(pointer.pointee.ss_family) {
        case AF_INET:
            pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_port = in_port_t(port).bigEndian }
        case AF_INET6:
            pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_port = in_port_t(port).bigEndian }
        default:
            break
        }
    }
}

private func portOf(_ storage: sockaddr_storage) -> Int {
    var storage = storage
    return withUnsafePointer(to: &storage) { pointer in
        switch Int32(pointer.pointee.ss_family) {
        case AF_INET:
            pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(in_port_t(bigEndian: $0.pointee.sin_port)) }
        case AF_INET6:
            pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { Int(in_port_t(bigEndian: $0.pointee.sin6_port)) }
        default:
            0
        }
    }
}

/// `127.0.0.1:8443` or `[::1]:8443`.
private func describe(_ storage: sockaddr_storage, port: Int) -> String {
    var storage = storage
    var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
    return withUnsafePointer(to: &storage) { pointer in
        switch Int32(pointer.pointee.ss_family) {
        case AF_INET:
            pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
                var raw = address.pointee.sin_addr
                inet_ntop(AF_INET, &raw, &text, socklen_t(text.count))
            }
            return "\(nulTerminated(text)):\(port)"
        case AF_INET6:
            pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
                var raw = address.pointee.sin6_addr
                inet_ntop(AF_INET6, &raw, &text, socklen_t(text.count))
            }
            return "[\(nulTerminated(text))]:\(port)"
        default:
            return "?:\(port)"
        }
    }
}

/// The text before the first NUL of a C character buffer.
func nulTerminated(_ buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
