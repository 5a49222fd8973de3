#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Logging
import Synchronization

#if canImport(Glibc)
private let systemSend = Glibc.send
#else
private let systemSend = Darwin.send
#endif

/// One accepted TCP connection: its descriptor, Dispatch sources, optional TLS session and outbound buffer.
///
/// It only moves bytes: what they mean is up to its `handler`. All mutable state is touched only on `queue`, its
/// `EventLoop`'s serial queue (shared by the loop's connections, so work for many of them can run in one block);
/// `isWritable` and `bufferedBytes` are atomics readable from anywhere.
final class Connection: @unchecked Sendable {  // Mutable state is confined to `queue` (checked with dispatchPrecondition); the rest are atomics and lets.
    /// Limits and timeouts a connection needs from the server configuration.
    struct Options: Sendable {
        var highWatermark = ServerConfiguration.Defaults.outboundHighWatermark
        var lowWatermark = ServerConfiguration.Defaults.outboundLowWatermark
        /// Beyond this many buffered bytes the peer is taken to be stuck and the connection is dropped.
        var maxBufferedBytes = 64 * 1024 * 1024
        var tlsHandshakeTimeout: Duration = .seconds(10)
        /// How long a closing connection may take to flush and see the peer's FIN.
        var closeTimeout: Duration = .seconds(5)
    }

    private enum State {
        case handshaking(deadline: ContinuousClock.Instant)
        case active
        /// Flushing what is buffered, then half-closed and waiting for the peer's FIN, until the deadline (pushed
        /// back while the peer keeps taking bytes, so a slow reader still gets the end).
        case closing(deadline: ContinuousClock.Instant)
        case closed
    }

    let queue: DispatchQueue
    let loop: EventLoop
    let logger: Logger
    private let fd: Int32
    /// The client's IP address, when the socket was accepted from one.
    let peerAddress: PeerAddress?
    /// Whether the peer's first bytes went to TLS (a plain HTTP request is answered in clear text instead).
    private var isTLSStarted = false
    private let options: Options
    private let onClose: @Sendable () -> Void
    private let writable = Atomic<Bool>(true)
    private let buffered = Atomic<Int>(0)

    // Confined to `queue`.
    var handler: (any ConnectionHandler)?
    private var state: State
    private var tls: TLSConnection?
    private var outbound = OutboundBuffer()
    private var readSource: (any DispatchSourceRead)?
    private var writeSource: (any DispatchSourceWrite)?
    private var isReadSuspended = false
    private var isReadPausedByHandler = false
    private var isWriteArmed = false
    private var liveSources = 0
    /// True while a read is handled: what it sends is written once, when it ends.
    private var defersFlush = false
    private var isFlushScheduled = false
    private var sentFIN = false
    /// While closing: the bytes the peer had not yet taken when the deadline was last pushed back.
    private var undeliveredWhenClosing = Int.max

    init(
        fd: Int32, loop: EventLoop, tls: TLSContext?, options: Options, logger: Logger, peerAddress: PeerAddress? = nil,
        onClose: @escaping @Sendable () -> Void
    ) throws(TLSError) {
        self.fd = fd
        self.peerAddress = peerAddress
        self.loop = loop
        self.queue = loop.queue
        self.options = options
        self.logger = logger
        self.onClose = onClose
        self.tls = try tls.map { context throws(TLSError) in try TLSConnection(context: context) }
        self.state = tls == nil ? .active : .handshaking(deadline: .now + options.tlsHandshakeTimeout)
    }

    /// False while more than the high watermark is buffered, until it falls below the low watermark.
    var isWritable: Bool { writable.load(ordering: .relaxed) }

    /// Bytes queued for the peer and not yet written to the socket.
    var bufferedBytes: Int { buffered.load(ordering: .relaxed) }

    /// Runs `body` on the connection's queue: at once when already there (keeping order with the callback
    /// in progress), otherwise asynchronously.
    func execute(_ body: @escaping @Sendable (Connection) -> Void) {
        if loop.isCurrent {
            body(self)
        } else {
            queue.async { body(self) }
        }
    }

    /// Whether the connection speaks TLS.
    var isSecure: Bool { tls != nil }

    /// Starts reading with `handler` in charge. Call once, on `queue`.
    func start(handler: any ConnectionHandler) {
        dispatchPrecondition(condition: .onQueue(queue))
        self.handler = handler
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        loop.register(self)
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        source.setEventHandler { self.readable() }  // a strong reference, as the cancel handler's: both are released on cancel
        source.setCancelHandler { self.sourceCancelled() }
        liveSources += 1
        readSource = source
        source.resume()
        if case .active = state {
            handler.connectionDidBecomeActive(self)
            flushNow()
        }
    }

    // MARK: Writing

    /// Sends application bytes (encrypted first under TLS). Ignored unless the connection is active.
    ///
    /// When nothing waits before them and no read is in progress, the bytes go straight to the socket (through the
    /// loop's scratch buffer under TLS) and only what the socket does not take is kept; otherwise they queue behind
    /// the rest.
    func send(_ bytes: [UInt8]) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard case .active = state, !bytes.isEmpty else { return }
        var writesNow = !defersFlush && outbound.isEmpty && !isWriteArmed
        var failed = false
        func take(_ piece: UnsafeRawBufferPointer) {
            if writesNow {
                guard let rest = write(piece) else {
                    failed = true
                    writesNow = false
                    return
                }
                if rest.isEmpty { return }
                writesNow = false
                outbound.append(Array(rest))
                armWriteSource()
            } else if !failed {
                outbound.append(Array(piece))
            }
        }
        if let tls {
            let failure = bytes.withUnsafeBytes { raw -> TLSError? in
                do throws(TLSError) {
                    try tls.writePlaintext(raw, scratch: loop.ciphertextBuffer, output: take)
                    return nil
                } catch {
                    return error
                }
            }
            if let failure {
                logger.debug("TLS write failed", metadata: ["error": "\(failure)"])
                abort()
                return
            }
        } else {
            bytes.withUnsafeBytes(take)
        }
        if failed {
            abort()
            return
        }
        didAppend()
    }

    /// Writes `bytes` to the socket; returns what it did not take (empty: all of it), or `nil` on a failure.
    private func write(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        var offset = 0
        while offset < bytes.count {
            let written = systemSend(fd, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            if written >= 0 {
                offset += written
                continue
            }
            switch errno {
            case EINTR:
                continue
            case EAGAIN, EWOULDBLOCK:
                return UnsafeRawBufferPointer(rebasing: bytes[offset...])
            default:
                logger.debug("write failed", metadata: ["error": "\(errnoText())"])
                return nil
            }
        }
        return UnsafeRawBufferPointer(rebasing: bytes[bytes.count...])
    }

    private func sendTLSOutput() {
        guard let tls else { return }
        while let ciphertext = tls.takeNetworkOutput() {
            outbound.append(ciphertext)
        }
        didAppend()
    }

    private func didAppend() {
        let count = outbound.count
        buffered.store(count, ordering: .relaxed)
        if count > options.maxBufferedBytes {
            logger.debug("peer is not reading; dropping the connection", metadata: ["buffered": "\(count)"])
            abort()
            return
        }
        if count > options.highWatermark, isWritable {
            writable.store(false, ordering: .relaxed)
            updateReadSource()
        }
        scheduleFlush()
    }

    private func scheduleFlush() {
        guard !defersFlush, !isFlushScheduled, !isWriteArmed, !outbound.isEmpty else { return }
        isFlushScheduled = true
        queue.async {
            self.isFlushScheduled = false
            self.flushNow()
        }
    }

    /// Writes as much as the socket takes; arms the write source for the rest.
    private func flushNow() {
        dispatchPrecondition(condition: .onQueue(queue))
        if case .closed = state { return }
        switch outbound.send(to: fd) {
        case nil:
            break
        case EAGAIN?, EWOULDBLOCK?:
            armWriteSource()
            updateBuffered()
            return
        case let code?:
            logger.debug("write failed", metadata: ["error": "\(errnoText(code))"])
            abort()
            return
        }
        disarmWriteSource()
        updateBuffered()
        // The drain callback inside `updateBuffered` may have sent more and closed; the FIN waits for those bytes.
        guard outbound.isEmpty else { return }
        if case .closing = state, !sentFIN {
            sentFIN = true
            shutdown(fd, Int32(SHUT_WR))
            if readSource == nil { finish() }
        }
    }

    private func updateBuffered() {
        let count = outbound.count
        buffered.store(count, ordering: .relaxed)
        if !isWritable, count <= options.lowWatermark {
            writable.store(true, ordering: .relaxed)
            updateReadSource()
            if case .active = state { handler?.connectionDidDrain(self) }
        }
    }

    private func armWriteSource() {
        guard !isWriteArmed else { return }
        if writeSource == nil {
            let source = DispatchSource.makeWriteSource(fileDescriptor: fd, queue: queue)
            source.setEventHandler { self.flushNow() }
            source.setCancelHandler { self.sourceCancelled() }
            liveSources += 1
            writeSource = source
        }
        isWriteArmed = true
        writeSource?.resume()
    }

    private func disarmWriteSource() {
        guard isWriteArmed else { return }
        isWriteArmed = false
        writeSource?.suspend()
    }

    // MARK: Reading

    /// Stops or restarts reading on the handler's behalf (e.g. too many pipelined requests in flight). Reading
    /// also pauses by itself while the connection is not writable.
    func setReading(_ enabled: Bool) {
        dispatchPrecondition(condition: .onQueue(queue))
        isReadPausedByHandler = !enabled
        updateReadSource()
    }

    private func updateReadSource() {
        guard let readSource else { return }
        let shouldRead = !isReadPausedByHandler && isWritable
        if shouldRead, isReadSuspended {
            isReadSuspended = false
            readSource.resume()
        } else if !shouldRead, !isReadSuspended {
            isReadSuspended = true
            readSource.suspend()
        }
    }

    private func readable() {
        dispatchPrecondition(condition: .onQueue(queue))
        let buffer = loop.readBuffer
        let count = recv(fd, buffer.baseAddress, buffer.count, 0)
        if count > 0 {
            defersFlush = true
            received(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
            defersFlush = false
            flushNow()
            if case .closing = state { queue.async { if case .closing = self.state { self.readable() } } }  // the peer's RST may raise no new event
        } else if count == 0 {
            readEOF()
        } else if errno != EAGAIN, errno != EWOULDBLOCK, errno != EINTR {
            logger.debug("read failed", metadata: ["error": "\(errnoText())"])
            abort()
        }
    }

    private func received(_ bytes: UnsafeRawBufferPointer) {
        switch state {
        case .closing, .closed:
            return  // draining until the peer's FIN
        case .handshaking, .active:
            break
        }
        guard let tls else {
            handler?.connection(self, didRead: bytes)
            return
        }
        if case .handshaking = state, !isTLSStarted, Self.looksLikePlainHTTP(bytes) {
            logger.debug("plain HTTP on the TLS port; answered in clear text")
            outbound.append(Self.plainHTTPOnTLSPortResponse)
            didAppend()
            beginClosing()
            return
        }
        isTLSStarted = true
        tls.receiveFromNetwork(bytes)
        if case .handshaking = state {
            let complete: Bool
            do {
                complete = try tls.handshake()
            } catch {
                logger.debug("TLS handshake failed", metadata: ["error": "\(error)"])
                sendTLSOutput()  // the alert
                beginClosing()
                return
            }
            sendTLSOutput()
            guard complete else { return }
            state = .active
            handler?.connectionDidBecomeActive(self)
        }
        do {
            let status = try tls.readPlaintext(into: loop.plaintextBuffer) { plaintext in
                guard case .active = state else { return }
                handler?.connection(self, didRead: plaintext)
            }
            if case .active = state { sendTLSOutput() }
            if status == .closed { readEOF() }
        } catch {
            logger.debug("TLS read failed", metadata: ["error": "\(error)"])
            sendTLSOutput()
            abort()
        }
    }

    /// Whether the first bytes on a TLS port are a plain HTTP request line (a TLS handshake starts with 0x16).
    private static func looksLikePlainHTTP(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let methods = ["GET ", "HEAD", "POST", "PUT ", "DELE", "OPTI", "PATC", "CONN", "TRAC"]
        guard bytes.count >= 4 else { return false }
        let start = String(decoding: bytes.prefix(4), as: UTF8.self)
        return methods.contains(start)
    }

    /// What a browser or curl that spoke plain HTTP to the TLS port reads, unencrypted, before the connection closes.
    private static let plainHTTPOnTLSPortResponse: [UInt8] = {
        let body = """
            {"error":"tls_required","detail":"this port speaks HTTPS: use https:// rather than http://"}

            """
        return Array(
            ("HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n"
                + "Connection: close\r\n\r\n" + body).utf8)
    }()

    private func readEOF() {
        if let readSource {
            if isReadSuspended {
                isReadSuspended = false
                readSource.resume()
            }
            readSource.cancel()
            self.readSource = nil
        }
        switch state {
        case .closing:
            if sentFIN { finish() }
        case .closed:
            break
        case .handshaking:
            finish()
        case .active:
            handler?.connectionDidReadEOF(self)
        }
    }

    // MARK: Closing

    /// Closes politely: sends close_notify under TLS, flushes what is buffered, half-closes and waits for the
    /// peer's FIN (bounded by the close timeout), then releases everything.
    func close() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard case .active = state else {
            if case .handshaking = state { finish() }
            return
        }
        tls?.shutdown()
        sendTLSOutput()
        beginClosing()
    }

    private func beginClosing() {
        state = .closing(deadline: .now + options.closeTimeout)
        undeliveredWhenClosing = .max
        flushNow()
    }

    /// Bytes in the kernel's send queue the peer has not acknowledged.
    private func unacknowledgedBytes() -> Int {
        var count: Int32 = 0
        #if canImport(Glibc)
        guard ioctl(fd, UInt(TIOCOUTQ), &count) == 0 else { return 0 }
        #endif
        return Int(count)
    }

    /// Closes at once, dropping anything buffered.
    func abort() {
        dispatchPrecondition(condition: .onQueue(queue))
        finish()
    }

    /// Called by the loop's timer: enforces the handshake and close deadlines, then lets the handler tick.
    func tick(now: ContinuousClock.Instant) {
        switch state {
        case .handshaking(let deadline):
            if now >= deadline {
                logger.debug("TLS handshake timed out")
                finish()
            }
        case .closing(let deadline):
            guard now >= deadline else { return }
            let undelivered = outbound.count + unacknowledgedBytes()
            if undelivered > 0, undelivered < undeliveredWhenClosing {
                undeliveredWhenClosing = undelivered
                state = .closing(deadline: now + options.closeTimeout)
            } else {
                finish()
            }
        case .active:
            handler?.connection(self, tick: now)
        case .closed:
            break
        }
    }

    /// Server shutdown: the handler says goodbye in its protocol's way.
    func shutDown() {
        dispatchPrecondition(condition: .onQueue(queue))
        switch state {
        case .active:
            handler?.connectionShouldShutDown(self)
        case .handshaking:
            finish()
        case .closing, .closed:
            break
        }
    }

    private func finish() {
        if case .closed = state { return }
        state = .closed
        outbound.removeAll()
        buffered.store(0, ordering: .relaxed)
        if let readSource {
            if isReadSuspended { readSource.resume() }  // a suspended source must be resumed to be cancelled
            readSource.cancel()
            self.readSource = nil
        }
        if let writeSource {
            if !isWriteArmed { writeSource.resume() }
            writeSource.cancel()
            self.writeSource = nil
        }
        isReadSuspended = false
        isWriteArmed = false
        tls = nil
        if liveSources == 0 { Glibc.close(fd) }
        let handler = self.handler
        self.handler = nil
        handler?.connectionDidClose(self)
        loop.unregister(self)
        onClose()
    }

    /// A source finished cancelling; the descriptor is closed once no source watches it.
    private func sourceCancelled() {
        liveSources -= 1
        if liveSources == 0, case .closed = state {
            Glibc.close(fd)
        }
    }
}
