import Dispatch
import RollboardNet

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One non-blocking TCP socket of a `RedisConnection`, with its Dispatch read and write sources. It only moves
/// bytes; the descriptor is closed exactly once: by `close()` when no source watches it, otherwise by the last
/// source's cancel handler (Dispatch requires the descriptor to stay open until then).
///
/// Confined to its connection's queue. The sources hold the socket (and the handlers their connection) until
/// `close()` cancels them.
final class RedisSocket {
    /// A resolved address to connect to.
    struct Address {
        var storage: sockaddr_storage
        var length: socklen_t
        /// The numeric address and port, for messages: `127.0.0.1:6379`, `[::1]:6379`.
        var text: String
    }

    /// What one read did.
    enum ReadResult {
        case bytes(Int)
        case wouldBlock
        case endOfFile
        case failed(String)
    }

    /// What one attempt to empty the outbound buffer did.
    enum WriteResult {
        /// Everything was written.
        case done
        /// The socket took what it could; the rest waits for the write source.
        case wouldBlock
        case failed(String)
    }

    let descriptor: Int32
    private let queue: DispatchQueue
    private var readSource: (any DispatchSourceRead)?
    private var writeSource: (any DispatchSourceWrite)?
    private var onReadable: (() -> Void)?
    private var onWritable: (() -> Void)?
    private var isWriteArmed = false
    private var liveSources = 0
    private var isClosed = false

    /// Opens a socket and starts a non-blocking connect to `address`; call `whenWritable` to learn how it ended.
    init(connectingTo address: Address, queue: DispatchQueue) throws(RedisError) {
        let kind = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let descriptor = socket(Int32(address.storage.ss_family), kind, 0)
        guard descriptor >= 0 else {
            throw .connectFailed("cannot open a socket: \(Self.errorText(errno))")
        }
        var storage = address.storage
        let result = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, address.length) }
        }
        // EINTR: the connect goes on in the background, as with EINPROGRESS.
        if result != 0, errno != EINPROGRESS, errno != EINTR {
            let reason = Self.errorText(errno)
            Glibc.close(descriptor)
            throw .connectFailed("cannot connect to \(address.text): \(reason)")
        }
        var one: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        self.descriptor = descriptor
        self.queue = queue
    }

    deinit {
        // Sources hold the socket until cancelled, so only a socket that never had one can end up here open.
        if !isClosed, liveSources == 0 { Glibc.close(descriptor) }
    }

    /// Resolves `host` (a name or an IP literal) to the addresses to try, in order. Blocks while a name is looked up.
    static func resolve(host: String, port: Int) throws(RedisError) -> [Address] {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        hints.ai_flags = AI_NUMERICSERV
        var results: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &results)
        guard status == 0, let first = results else {
            throw .connectFailed("cannot resolve \(host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(first) }
        var addresses: [Address] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let info = cursor {
            cursor = info.pointee.ai_next
            guard let address = info.pointee.ai_addr else { continue }
            var storage = sockaddr_storage()
            let length = min(Int(info.pointee.ai_addrlen), MemoryLayout<sockaddr_storage>.size)
            withUnsafeMutableBytes(of: &storage) {
                $0.copyMemory(from: UnsafeRawBufferPointer(start: address, count: length))
            }
            var name = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            let numeric =
                getnameinfo(address, info.pointee.ai_addrlen, &name, socklen_t(name.count), nil, 0, NI_NUMERICHOST) == 0
                ? String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : host
            let text = numeric.contains(":") ? "[\(numeric)]:\(port)" : "\(numeric):\(port)"
            addresses.append(Address(storage: storage, length: socklen_t(length), text: text))
        }
        return addresses
    }

    /// The outcome of the non-blocking connect, once the socket is writable: `nil` when connected, else the reason.
    func connectFailure() -> String? {
        var code: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &code, &length) == 0 else { return Self.errorText(errno) }
        return code == 0 ? nil : Self.errorText(code)
    }

    /// Calls `handler` on the queue whenever bytes (or the end of the stream) can be read.
    func startReading(_ handler: @escaping () -> Void) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard !isClosed, readSource == nil else { return }
        onReadable = handler
        let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
        source.setEventHandler { self.onReadable?() }
        source.setCancelHandler { self.sourceCancelled() }
        liveSources += 1
        readSource = source
        source.resume()
    }

    /// Calls `handler` on the queue while the socket is writable, until `disarmWrite()`.
    func armWrite(_ handler: @escaping () -> Void) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard !isClosed else { return }
        onWritable = handler
        if writeSource == nil {
            let source = DispatchSource.makeWriteSource(fileDescriptor: descriptor, queue: queue)
            source.setEventHandler { self.onWritable?() }
            source.setCancelHandler { self.sourceCancelled() }
            liveSources += 1
            writeSource = source
        }
        if !isWriteArmed {
            isWriteArmed = true
            writeSource?.resume()
        }
    }

    func disarmWrite() {
        guard isWriteArmed else { return }
        isWriteArmed = false
        writeSource?.suspend()
    }

    /// Reads once into `buffer`.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> ReadResult {
        let count = recv(descriptor, buffer.baseAddress, buffer.count, 0)
        if count > 0 { return .bytes(count) }
        if count == 0 { return .endOfFile }
        switch errno {
        case EAGAIN, EWOULDBLOCK, EINTR: return .wouldBlock
        case let code: return .failed(Self.errorText(code))
        }
    }

    /// Writes from `outbound` until it is empty or the socket is full.
    func write(_ outbound: inout OutboundBuffer) -> WriteResult {
        switch outbound.send(to: descriptor) {
        case nil: .done
        case EAGAIN?, EWOULDBLOCK?: .wouldBlock
        case let code?: .failed(Self.errorText(code))
        }
    }

    /// Stops both sources and closes the descriptor (now, or once the sources are cancelled). Idempotent.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        onReadable = nil
        onWritable = nil
        if let readSource {
            readSource.cancel()
            self.readSource = nil
        }
        if let writeSource {
            if !isWriteArmed { writeSource.resume() }  // a suspended source must be resumed to be cancelled
            writeSource.cancel()
            self.writeSource = nil
        }
        isWriteArmed = false
        if liveSources == 0 { Glibc.close(descriptor) }
    }

    private func sourceCancelled() {
        liveSources -= 1
        if liveSources == 0, isClosed { Glibc.close(descriptor) }
    }

    static func errorText(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}

@available(*, unavailable)
extension RedisSocket: Sendable {}
