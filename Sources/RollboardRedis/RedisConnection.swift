import Dispatch
import RollboardNet
public import Logging
import Synchronization

/// One connection to Redis on its own event loop: commands are pipelined, replies come back in order. The bytes move
/// over RollboardNet's `Connection` (the server's socket code, here connecting out), with TLS over memory BIOs for
/// `rediss://`; this type speaks RESP over it and keeps the connect, reply deadlines and setup commands.
///
/// Every public method may be called from any thread; each hops to the connection's queue, so calls from one thread
/// keep their order. Completions and the disconnect handler run on that queue: keep them short.
///
/// An open connection keeps itself alive (its transport, registered with its loop, holds it) until `close()` or
/// until the connection ends by itself.
public final class RedisConnection: @unchecked Sendable {  // Vars only on `queue`; other state is Atomic/Mutex.
    enum State {
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
    struct Pending {
        let deadline: DispatchTime
        let completion: (Result<RedisReply, RedisError>) -> Void
    }

    /// `isConnected` without a hop to the queue: set to `ready` on the queue, to `ended` by `close()` at once.
    enum Lifecycle {
        static let notConnected: UInt8 = 0
        static let ready: UInt8 = 1
        static let ended: UInt8 = 2
    }

    public let configuration: Configuration
    let logger: Logger
    /// Owns all the mutable state below: every access runs on it.
    let queue: DispatchQueue
    let lifecycle = Atomic<UInt8>(Lifecycle.notConnected)
    let disconnectHandler = Mutex<(@Sendable (RedisError) -> Void)?>(nil)
    /// The loop whose queue is `queue`; its tick bounds the polite close of the transport.
    let loop: EventLoop
    let reader = RedisReplyReader()

    // Confined to `queue`.
    var state = State.idle
    var connectCompletion: (@Sendable (Result<Void, RedisError>) -> Void)?
    var connectDeadline: DispatchTime?
    /// Addresses not tried yet, and why the last one failed.
    var addresses: [SocketAddress] = []
    var lastConnectFailure: String?
    /// The transport to the server, from the TCP connect on.
    var link: Connection?
    /// Oldest first; `pendingHead` is the next to be answered (answered slots are nil until compacted).
    var pending: [Pending?] = []
    var pendingHead = 0
    var timer: (any DispatchSourceTimer)?
    /// When `timer` fires next, if it is scheduled.
    var timerDeadline: DispatchTime?

    public init(configuration: Configuration, logger: Logger) {
        self.configuration = configuration
        var logger = logger
        logger[metadataKey: "redis"] = "\(configuration.url)"
        self.logger = logger
        loop = EventLoop(label: "rollboard.redis", tickInterval: .milliseconds(500))
        queue = loop.queue
    }

    deinit {
        // The transport holds this connection (as its handler) until it has closed, so none is left here.
        timer?.cancel()
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
}
