#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
public import Logging
import Synchronization

/// A TLS (or plain) HTTP/1.1 and WebSocket server on Dispatch: listeners, loop queues and connections.
public final class Server: Sendable {
    private struct Running {
        var listeners: [ListeningSocket]
        var loops: [EventLoop]
    }

    private enum State {
        case idle
        case running(Running)
        case stopped
    }

    private let configuration: ServerConfiguration
    private let logger: Logger
    private let makeHandler: @Sendable (Connection) -> any ConnectionHandler
    private let state = Mutex<State>(.idle)
    private let acceptQueue = DispatchQueue(label: "rollboard.accept")
    private let liveConnections = DispatchGroup()
    private let nextLoop = Atomic<Int>(0)
    private let boundPort = Atomic<Int>(0)
    /// The TLS context new connections are made with; replaced by `reloadTLS()`.
    private let tlsContext = Mutex<TLSContext?>(nil)
    private let limiter: ConnectionLimiter
    /// Written to a connection refused for a limit before it is closed (a plain-HTTP 503); `nil` closes silently.
    private let refusal: (@Sendable () -> [UInt8])?

    /// A server that answers HTTP with `handler` and hands accepted WebSocket upgrades to its delegates.
    /// Nothing happens until `start()`.
    public convenience init(configuration: ServerConfiguration, logger: Logger, handler: any ServerHandler) {
        let context = ServerContext(configuration: configuration, handler: handler, logger: logger)
        self.init(
            configuration: configuration, logger: logger,
            refusal: configuration.tls == nil ? Self.serviceUnavailable : nil
        ) { _ in HTTPConnectionHandler(context: context) }
    }

    /// A server whose connections run handlers from `makeHandler` (tests use raw handlers without HTTP); a
    /// connection refused for a limit gets the bytes of `refusal`, if any, before it is closed.
    init(
        configuration: ServerConfiguration, logger: Logger, refusal: (@Sendable () -> [UInt8])? = nil,
        makeHandler: @escaping @Sendable (Connection) -> any ConnectionHandler
    ) {
        self.configuration = configuration
        self.logger = logger
        self.makeHandler = makeHandler
        self.refusal = refusal
        self.limiter = ConnectionLimiter(
            maxConnections: configuration.maxConnections,
            maxConnectionsPerAddress: configuration.maxConnectionsPerAddress)
    }

    /// The answer to a plain-HTTP connection over a limit: it costs one write and no parsing.
    @Sendable private static func serviceUnavailable() -> [UInt8] {
        HTTPResponse.error(.serviceUnavailable, "too_many_connections", detail: "too many connections; try again later")
            .serialized(date: .now(), keepAlive: false)
    }

    /// Loads the TLS certificate (if any), binds and listens, and starts accepting connections.
    ///
    /// Throws `TLSError` for a missing, unreadable or mismatched certificate or key, and `ServerError` when the
    /// address cannot be bound (e.g. the port is in use).
    public func start() throws {
        try state.withLock { state in
            guard case .idle = state else {
                throw ServerError(.invalidState, "the server was already started")
            }
            signal(SIGPIPE, SIG_IGN)
            let tls = try configuration.tls.map { configuration throws(TLSError) in
                try TLSContext(server: configuration)
            }
            let listeners = try ListeningSocket.bind(
                host: configuration.host, port: configuration.port, backlog: Int32(clamping: configuration.backlog),
                queue: acceptQueue, logger: logger)
            let loops = (0..<configuration.effectiveLoopCount).map {
                EventLoop(label: "rollboard.loop.\($0)", tickInterval: configuration.tickInterval)
            }
            boundPort.store(listeners.first?.port ?? 0, ordering: .relaxed)
            tlsContext.withLock { $0 = tls }
            state = .running(Running(listeners: listeners, loops: loops))
            for listener in listeners {
                listener.startAccepting { [self] fd, address in
                    accepted(fd, from: address, loops: loops, tls: tlsContext.withLock { $0 })
                }
                logger.info(
                    "listening",
                    metadata: ["address": "\(listener.addressDescription)", "tls": "\(tls != nil)"])
            }
        }
    }

    /// Loads the configured certificate chain and key again (after they were renewed on disk): connections accepted
    /// from now on use them, open connections keep the ones they started with. On any error the server keeps the
    /// certificate it has and the error is thrown. Does nothing for a plain server.
    public func reloadTLS() throws(TLSError) {
        guard let files = configuration.tls else { return }
        let context = try TLSContext(server: files)
        tlsContext.withLock { $0 = context }
        logger.info("TLS certificate and key reloaded", metadata: ["certificate": "\(files.certificateChainPath)"])
    }

    /// The port the server listens on, known after `start()` (also when the configuration asked for port 0).
    public var localPort: Int {
        boundPort.load(ordering: .relaxed)
    }

    /// How many connections are open right now.
    public var connectionCount: Int {
        state.withLock { state in
            guard case .running(let running) = state else { return 0 }
            return running.loops.reduce(0) { $0 + $1.connectionCount }
        }
    }

    /// Stops listening and asks every connection to finish (WebSockets are closed with 1001, HTTP connections after
    /// their responses); once they have, or once the close timeout (and a second) passed and the rest were dropped,
    /// stops the loops and calls `completion` (on the accept queue). Nothing waits meanwhile; a server that is not
    /// running calls `completion` at once.
    public func shutdown(completion: @escaping @Sendable () -> Void) {
        let running: Running? = state.withLock { state in
            defer { state = .stopped }
            if case .running(let running) = state { return running }
            return nil
        }
        guard let running else { return completion() }
        let closeTimeout = max(configuration.closeTimeout, configuration.webSocket.closeTimeout)
        let grace = DispatchTimeInterval.nanoseconds(Int(closeTimeout.nanoseconds) + 1_000_000_000)
        // 0: connections are finishing; 1: the stragglers were dropped; 2: stopped.
        let phase = Mutex(0)
        let finish: @Sendable () -> Void = { [self] in
            let first = phase.withLock { phase in
                defer { phase = 2 }
                return phase < 2
            }
            guard first else { return }
            for loop in running.loops { loop.stop() }
            logger.info("server stopped")
            completion()
        }
        acceptQueue.async { [self] in
            for listener in running.listeners { listener.close() }
            for loop in running.loops {
                for connection in loop.allConnections {
                    connection.queue.async { connection.shutDown() }
                }
            }
            liveConnections.notify(queue: acceptQueue, execute: finish)
            acceptQueue.asyncAfter(deadline: .now() + grace) { [self] in
                let stragglers = phase.withLock { phase in
                    defer { phase = max(phase, 1) }
                    return phase == 0
                }
                guard stragglers else { return }
                for loop in running.loops {
                    for connection in loop.allConnections {
                        connection.queue.async { connection.abort() }
                    }
                }
                acceptQueue.asyncAfter(deadline: .now() + 2, execute: finish)
            }
        }
    }

    /// On the accept queue: wraps a new descriptor in a connection on the next loop, or refuses it when the server
    /// already has `maxConnections` open, or its address `maxConnectionsPerAddress`.
    private func accepted(_ fd: Int32, from address: PeerAddress?, loops: [EventLoop], tls: TLSContext?) {
        let admission = limiter.admit(address)
        guard admission == .admitted else {
            refuse(fd, from: address, because: admission)
            return
        }
        let loop = loops[nextLoop.wrappingAdd(1, ordering: .relaxed).oldValue % loops.count]
        let connection: Connection
        liveConnections.enter()
        do {
            connection = try Connection(
                fd: fd, loop: loop, tls: tls, options: configuration.connectionOptions, logger: logger,
                peerAddress: address,
                onClose: { [self] in
                    limiter.release(address)
                    liveConnections.leave()
                })
        } catch {
            logger.error("cannot set up a connection", metadata: ["error": "\(error)"])
            close(fd)
            limiter.release(address)
            liveConnections.leave()
            return
        }
        connection.queue.async { [makeHandler] in
            connection.start(handler: makeHandler(connection))
        }
    }

    /// Closes a connection over a limit, after one non-blocking write of the refusal if there is one; warns at most
    /// once per interval, with the number refused since the last warning.
    private func refuse(_ fd: Int32, from address: PeerAddress?, because admission: ConnectionLimiter.Admission) {
        if let refusal {
            let bytes = refusal()
            _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        }
        close(fd)
        guard let refused = limiter.noteRefusal(now: .now) else { return }
        let limit =
            admission == .overTotal
            ? "maxConnections \(configuration.maxConnections)"
            : "maxConnectionsPerAddress \(configuration.maxConnectionsPerAddress)"
        logger.warning(
            "connection limit reached; refusing new connections",
            metadata: ["limit": "\(limit)", "refused": "\(refused)", "address": "\(address.map(\.description) ?? "?")"])
    }
}

extension Duration {
    var nanoseconds: Int64 {
        components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000
    }
}
