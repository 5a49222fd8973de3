import Dispatch
import RollboardNet
public import Logging
import Synchronization

/// One connection to Redis on its own serial DispatchQueue: commands are pipelined, replies come back in order.
///
/// Every public method may be called from any thread; each hops to the connection's queue, so calls from one thread
/// keep their order. Completions and the disconnect handler run on that queue: keep them short.
///
/// An open connection keeps itself alive (its Dispatch sources hold it) until `close()` or until the connection
/// ends by itself.
public final class RedisConnection: @unchecked Sendable {  // Vars only on `queue`; other state is Atomic/Mutex.
    private enum State {
        case idle
        /// A TCP connect to one of the resolved addresses is under way.
        case connecting
        case tlsHandshaking
        /// `AUTH`, `SELECT` and `CLIENT SETNAME` are sent; this many replies are still to come.
        case preparing(remaining: Int)
        case ready
        case closed
    }

    /// A command sent and waiting for its reply.
    private struct Pending {
        let deadline: DispatchTime
        let completion: (Result<RedisReply, RedisError>) -> Void
    }

    /// `isConnected` without a hop to the queue: set to `ready` on the queue, to `ended` by `close()` at once.
    private enum Lifecycle {
        static let notConnected: UInt8 = 0
        static let ready: UInt8 = 1
        static let ended: UInt8 = 2
    }

    public let configuration: Configuration
    private let logger: Logger
    /// Owns all the mutable state below: every access runs on it.
    private let queue: DispatchQueue
    private let lifecycle = Atomic<UInt8>(Lifecycle.notConnected)
    private let disconnectHandler = Mutex<(@Sendable (RedisError) -> Void)?>(nil)
    private let readBuffer: UnsafeMutableRawBufferPointer
    /// Plaintext decrypted by TLS, and records encrypted by TLS (each at most one 16 KiB record at a time).
    private let plaintextBuffer: UnsafeMutableRawBufferPointer
    private let ciphertextBuffer: UnsafeMutableRawBufferPointer
    private let reader = RedisReplyReader()

    // Confined to `queue`.
    private var state = State.idle
    private var connectCompletion: (@Sendable (Result<Void, RedisError>) -> Void)?
    private var connectDeadline: DispatchTime?
    /// Addresses not tried yet, and why the last one failed.
    private var addresses: [RedisSocket.Address] = []
    private var lastConnectFailure: String?
    private var socket: RedisSocket?
    private var tls: TLSConnection?
    /// Oldest first; `pendingHead` is the next to be answered (answered slots are nil until compacted).
    private var pending: [Pending?] = []
    private var pendingHead = 0
    /// Encoded commands not yet handed to TLS or the outbound buffer (so a pipeline becomes few TLS records).
    private var unsent: [UInt8] = []
    private var outbound = OutboundBuffer()
    private var isFlushScheduled = false
    private var timer: (any DispatchSourceTimer)?
    /// When `timer` fires next, if it is scheduled.
    private var timerDeadline: DispatchTime?

    public init(configuration: Configuration, logger: Logger) {
        self.configuration = configuration
        var logger = logger
        logger[metadataKey: "redis"] = "\(configuration.url)"
        self.logger = logger
        queue = DispatchQueue(label: "rollboard.redis")
        readBuffer = .allocate(byteCount: 64 * 1024, alignment: 16)
        plaintextBuffer = .allocate(byteCount: 16 * 1024, alignment: 16)
        ciphertextBuffer = .allocate(byteCount: 17 * 1024, alignment: 16)
    }

    deinit {
        timer?.cancel()
        socket?.close()
        readBuffer.deallocate()
        plaintextBuffer.deallocate()
        ciphertextBuffer.deallocate()
    }

    /// Whether the connection is established and not closed: `connect` succeeded, and neither `close()` nor a
    /// failure has ended it since.
    public var isConnected: Bool {
        lifecycle.load(ordering: .acquiring) == Lifecycle.ready
    }

    /// Connects: a non-blocking TCP connect (to each resolved address in turn) with `TCP_NODELAY`; for `rediss://`
    /// a TLS handshake with SNI and, unless turned off, certificate and host name verification; then
    /// `AUTH [user] password`, `SELECT db` and `CLIENT SETNAME name` as configured, their replies checked (a refusal
    /// fails the connect with `.authFailed`). All within `configuration.connectTimeout`.
    ///
    /// `completion` is called once, on the connection's queue. A connection connects once; a failed one cannot be
    /// reused. Host names are resolved with `getaddrinfo`, which blocks the connection's queue while it runs.
    public func connect(completion: @escaping @Sendable (Result<Void, RedisError>) -> Void) {
        queue.async { self.startConnecting(completion) }
    }

    /// Sends one command; `completion` gets its reply (a Redis `-ERR` reply is `.success(.error(...))`) or a
    /// `RedisError` if the connection failed, closed or timed out before the reply came.
    ///
    /// `timeout` is how many seconds the reply may take from now: when it passes, the connection is closed with
    /// `.timedOut`, every waiting completion fails and the disconnect handler runs. Commands sent before `connect`
    /// succeeded, or after the connection ended, fail at once with `.closed`. `completion` runs on the connection's
    /// queue.
    public func send(
        _ arguments: [[UInt8]], timeout: Double = 5,
        completion: @escaping @Sendable (Result<RedisReply, RedisError>) -> Void
    ) {
        let deadline = Self.deadline(after: timeout)
        queue.async { self.enqueue(arguments, deadline: deadline, completion: completion) }
    }

    /// `send` with each argument as UTF-8.
    public func send(
        _ arguments: [String], timeout: Double = 5,
        completion: @escaping @Sendable (Result<RedisReply, RedisError>) -> Void
    ) {
        send(arguments.map { Array($0.utf8) }, timeout: timeout, completion: completion)
    }

    /// `handler` is called once, on the connection's queue, when an established connection ends for any reason but
    /// `close()`: the server closed it, an error broke it, or a reply timed out. Waiting completions have failed
    /// by then. Set it before `connect`: a connection that has already ended does not call it.
    public func onDisconnect(_ handler: @escaping @Sendable (RedisError) -> Void) {
        disconnectHandler.withLock { $0 = handler }
    }

    /// Closes the connection (or stops a connect under way); waiting completions fail with `.closed`. Idempotent.
    public func close() {
        lifecycle.store(Lifecycle.ended, ordering: .releasing)
        queue.async { self.finish(.closed("the connection was closed"), byClose: true) }
    }

    // MARK: Connecting

    private func startConnecting(_ completion: @escaping @Sendable (Result<Void, RedisError>) -> Void) {
        dispatchPrecondition(condition: .onQueue(queue))
        switch state {
        case .idle:
            break
        case .closed:
            completion(.failure(.closed("the connection was closed")))
            return
        case .connecting, .tlsHandshaking, .preparing, .ready:
            completion(.failure(.connectFailed("connect was already called on this connection")))
            return
        }
        let url = configuration.url
        connectCompletion = completion
        state = .connecting
        let deadline = Self.deadline(after: configuration.connectTimeout)
        connectDeadline = deadline
        scheduleTimer(deadline)
        do {
            addresses = try RedisSocket.resolve(host: url.host, port: url.port)
        } catch {
            finish(error)
            return
        }
        connectNextAddress()
    }

    private func connectNextAddress() {
        guard case .connecting = state else { return }
        while !addresses.isEmpty {
            let address = addresses.removeFirst()
            do {
                let socket = try RedisSocket(connectingTo: address, queue: queue)
                self.socket = socket
                socket.armWrite { self.connectFinished(address) }
                return
            } catch {
                lastConnectFailure = error.message
            }
        }
        finish(.connectFailed(lastConnectFailure ?? "no address found for \(configuration.url.host)"))
    }

    /// The socket became writable: the TCP connect to `address` ended, one way or the other.
    private func connectFinished(_ address: RedisSocket.Address) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard case .connecting = state, let socket else { return }
        if let reason = socket.connectFailure() {
            socket.close()
            self.socket = nil
            lastConnectFailure = "cannot connect to \(address.text): \(reason)"
            connectNextAddress()
            return
        }
        socket.disarmWrite()
        logger.debug("TCP connected", metadata: ["address": "\(address.text)"])
        socket.startReading { self.readable() }
        if configuration.url.usesTLS {
            startTLS()
        } else {
            startSetup()
        }
    }

    private func startTLS() {
        let host = configuration.url.host
        do {
            let context = try TLSContext(client: configuration.tls)
            tls = try TLSConnection(
                context: context, isServer: false, serverName: host,
                expectedHostName: configuration.tls.verifiesCertificate ? host : nil)
        } catch {
            finish(.tlsFailed("\(error)"))
            return
        }
        state = .tlsHandshaking
        advanceHandshake()
    }

    private func advanceHandshake() {
        guard let tls, case .tlsHandshaking = state else { return }
        let complete: Bool
        do {
            complete = try tls.handshake()
        } catch {
            let reason = tls.certificateRejection.map { "the server's certificate was rejected: \($0)" } ?? error.detail
            queueTLSOutput()  // the alert, sent if the socket takes it at once
            flushNow()
            finish(.tlsFailed(reason))
            return
        }
        queueTLSOutput()
        flushNow()
        guard complete else { return }
        logger.debug("TLS established", metadata: ["version": "\(tls.protocolVersion)", "cipher": "\(tls.cipherName)"])
        startSetup()
    }

    /// Sends the commands the URL and configuration call for, or becomes ready at once when there are none.
    private func startSetup() {
        let url = configuration.url
        var commands: [(name: String, arguments: [String])] = []
        if let password = url.password {
            commands.append(("AUTH", url.username.map { ["AUTH", $0, password] } ?? ["AUTH", password]))
        }
        if url.database != 0 {
            commands.append(("SELECT", ["SELECT", String(url.database)]))
        }
        if let name = configuration.name {
            commands.append(("CLIENT SETNAME", ["CLIENT", "SETNAME", name]))
        }
        guard !commands.isEmpty else {
            becomeReady()
            return
        }
        state = .preparing(remaining: commands.count)
        for command in commands {
            let name = command.name
            appendCommand(command.arguments.map { Array($0.utf8) }, deadline: connectDeadline ?? .distantFuture) {
                self.setupReplied(name, $0)
            }
        }
        flushNow()
    }

    private func setupReplied(_ command: String, _ result: Result<RedisReply, RedisError>) {
        guard case .preparing(let remaining) = state else { return }
        switch result {
        case .success(.error(let message)):
            finish(.authFailed("\(command) was refused: \(message)"))
        case .success:
            if remaining == 1 {
                becomeReady()
            } else {
                state = .preparing(remaining: remaining - 1)
            }
        case .failure:
            break  // the connection is already ending, and the connect fails with it
        }
    }

    private func becomeReady() {
        state = .ready
        connectDeadline = nil
        lastConnectFailure = nil
        // Stays `ended` if close() was called meanwhile: its block is queued and ends the connection next.
        _ = lifecycle.compareExchange(
            expected: Lifecycle.notConnected, desired: Lifecycle.ready, ordering: .acquiringAndReleasing)
        logger.debug("Redis connection ready")
        let completion = connectCompletion
        connectCompletion = nil
        completion?(.success(()))
    }

    // MARK: Sending

    private func enqueue(
        _ arguments: [[UInt8]], deadline: DispatchTime,
        completion: @escaping @Sendable (Result<RedisReply, RedisError>) -> Void
    ) {
        dispatchPrecondition(condition: .onQueue(queue))
        switch state {
        case .ready:
            break
        case .idle, .connecting, .tlsHandshaking, .preparing:
            completion(.failure(.closed("not connected yet: send commands once connect has succeeded")))
            return
        case .closed:
            completion(.failure(.closed("the connection is closed")))
            return
        }
        guard !arguments.isEmpty else {
            completion(.failure(.protocolError("a command needs at least one argument")))
            return
        }
        appendCommand(arguments, deadline: deadline, completion: completion)
        scheduleFlush()
    }

    private func appendCommand(
        _ arguments: [[UInt8]], deadline: DispatchTime, completion: @escaping (Result<RedisReply, RedisError>) -> Void
    ) {
        pending.append(Pending(deadline: deadline, completion: completion))
        RedisCommandEncoder.encode(arguments, into: &unsent)
        scheduleTimer(deadline)
    }

    /// Flushes once the blocks already queued have run, so commands sent together go out together.
    private func scheduleFlush() {
        guard !isFlushScheduled else { return }
        isFlushScheduled = true
        queue.async {
            self.isFlushScheduled = false
            self.flushNow()
        }
    }

    /// Moves unsent commands to the outbound buffer (encrypted under TLS), then writes as much as the socket takes;
    /// the write source is armed for the rest.
    private func flushNow() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard let socket else { return }
        if !unsent.isEmpty {
            var plaintext: [UInt8] = []
            swap(&plaintext, &unsent)
            if let tls {
                let failure = plaintext.withUnsafeBytes { bytes -> TLSError? in
                    do throws(TLSError) {
                        try tls.writePlaintext(bytes, scratch: ciphertextBuffer) { outbound.append(Array($0)) }
                        return nil
                    } catch {
                        return error
                    }
                }
                if let failure {
                    finish(.tlsFailed("cannot encrypt a command: \(failure.detail)"))
                    return
                }
            } else {
                outbound.append(plaintext)
            }
        }
        switch socket.write(&outbound) {
        case .done:
            socket.disarmWrite()
        case .wouldBlock:
            socket.armWrite { self.flushNow() }
        case .failed(let reason):
            finish(.closed("cannot write to the server: \(reason)"))
        }
    }

    private func queueTLSOutput() {
        guard let tls else { return }
        while let ciphertext = tls.takeNetworkOutput() {
            outbound.append(ciphertext)
        }
    }

    // MARK: Receiving

    private func readable() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard let socket else { return }
        switch socket.read(into: readBuffer) {
        case .bytes(let count):
            received(UnsafeRawBufferPointer(rebasing: readBuffer[..<count]))
        case .wouldBlock:
            break
        case .endOfFile:
            finish(.closed("the server closed the connection"))
        case .failed(let reason):
            finish(.closed("cannot read from the server: \(reason)"))
        }
    }

    private func received(_ bytes: UnsafeRawBufferPointer) {
        guard let tls else {
            parse(bytes)
            return
        }
        tls.receiveFromNetwork(bytes)
        if case .tlsHandshaking = state {
            advanceHandshake()
            guard tls.isHandshakeComplete, self.tls != nil else { return }
        }
        do {
            let status = try tls.readPlaintext(into: plaintextBuffer) { plaintext in self.parse(plaintext) }
            guard self.tls != nil else { return }  // ended while parsing
            if status == .closed {
                finish(.closed("the server closed the TLS session"))
                return
            }
            queueTLSOutput()  // e.g. a reply to a key update
            if !outbound.isEmpty { flushNow() }
        } catch {
            finish(.tlsFailed("cannot read a TLS record: \(error)"))
        }
    }

    /// Hands bytes from the server to the reply reader and each reply to the oldest waiting command.
    private func parse(_ bytes: UnsafeRawBufferPointer) {
        if case .closed = state { return }
        let replies: [RedisReply]
        do {
            replies = try reader.feed(bytes)
        } catch {
            finish(error)
            return
        }
        for reply in replies {
            guard let command = popPending() else {
                finish(.protocolError("the server sent a reply to no command"))
                return
            }
            command.completion(.success(reply))
            if case .closed = state { return }
        }
    }

    private func popPending() -> Pending? {
        guard pendingHead < pending.count else { return nil }
        let command = pending[pendingHead]
        pending[pendingHead] = nil
        pendingHead += 1
        if pendingHead == pending.count {
            pending.removeAll(keepingCapacity: pending.count <= 1024)
            pendingHead = 0
        } else if pendingHead >= 1024, pendingHead * 2 >= pending.count {
            pending.removeFirst(pendingHead)
            pendingHead = 0
        }
        return command
    }

    // MARK: Deadlines

    /// `seconds` from now; negative or NaN is now, and anything beyond a year is a year.
    private static func deadline(after seconds: Double) -> DispatchTime {
        let clamped = seconds.isNaN ? 0 : min(max(seconds, 0), 365 * 24 * 3600)
        return .now() + clamped
    }

    /// Makes the timer fire at `deadline` unless it already fires earlier.
    private func scheduleTimer(_ deadline: DispatchTime) {
        if let timerDeadline, timerDeadline <= deadline { return }
        timerDeadline = deadline
        let timer: any DispatchSourceTimer
        if let existing = self.timer {
            timer = existing
        } else {
            timer = DispatchSource.makeTimerSource(queue: queue)
            timer.setEventHandler { [weak self] in self?.timerFired() }
            timer.resume()
            self.timer = timer
        }
        timer.schedule(deadline: deadline, leeway: .milliseconds(10))
    }

    private func timerFired() {
        dispatchPrecondition(condition: .onQueue(queue))
        timerDeadline = nil
        let now = DispatchTime.now()
        switch state {
        case .idle, .closed:
            return
        case .connecting, .tlsHandshaking, .preparing:
            if let connectDeadline, connectDeadline <= now {
                finish(.connectFailed(connectTimeoutMessage()))
                return
            }
        case .ready:
            if let earliest = earliestPendingDeadline(), earliest <= now {
                logger.debug("a reply timed out; closing the connection")
                finish(.timedOut)
                return
            }
        }
        let next = [connectDeadline, earliestPendingDeadline()].compactMap { $0 }.min()
        if let next { scheduleTimer(next) }
    }

    private func earliestPendingDeadline() -> DispatchTime? {
        pending[pendingHead...].lazy.compactMap { $0?.deadline }.min()
    }

    private func connectTimeoutMessage() -> String {
        let url = configuration.url
        let target = url.host.contains(":") ? "[\(url.host)]:\(url.port)" : "\(url.host):\(url.port)"
        let phase =
            switch state {
            case .tlsHandshaking: " during the TLS handshake"
            case .preparing: " waiting for the replies to the setup commands"
            default: lastConnectFailure.map { " (last failure: \($0))" } ?? ""
            }
        return "no connection to \(target) within \(configuration.connectTimeout) s\(phase)"
    }

    // MARK: Ending

    /// Ends the connection with `error`: releases the socket, TLS and timer, fails every waiting completion, then
    /// fails the connect under way or (unless `close()` asked for it) tells the disconnect handler. Runs once.
    private func finish(_ error: RedisError, byClose: Bool = false) {
        dispatchPrecondition(condition: .onQueue(queue))
        let wasReady: Bool
        switch state {
        case .closed: return
        case .ready: wasReady = true
        case .idle, .connecting, .tlsHandshaking, .preparing: wasReady = false
        }
        state = .closed
        lifecycle.store(Lifecycle.ended, ordering: .releasing)
        if byClose, let tls, let socket, tls.isHandshakeComplete {
            tls.shutdown()
            queueTLSOutput()
            _ = socket.write(&outbound)  // close_notify, if the socket takes it at once
        }
        socket?.close()
        socket = nil
        tls = nil
        timer?.cancel()
        timer = nil
        timerDeadline = nil
        connectDeadline = nil
        addresses = []
        unsent = []
        outbound.removeAll()
        let waiting = pending[pendingHead...].compactMap { $0 }
        pending = []
        pendingHead = 0
        let connectCompletion = self.connectCompletion
        self.connectCompletion = nil
        logger.debug("Redis connection ended", metadata: ["reason": "\(error)"])

        for command in waiting {
            command.completion(.failure(error))
        }
        if let connectCompletion {
            // A connection that never came up failed to connect, whatever broke it (unless close() stopped it).
            let connectError = !byClose && error.kind == .closed ? RedisError.connectFailed(error.message) : error
            connectCompletion(.failure(connectError))
        } else if wasReady, !byClose {
            let handler = disconnectHandler.withLock { handler in
                defer { handler = nil }
                return handler
            }
            handler?(error)
        }
    }
}
