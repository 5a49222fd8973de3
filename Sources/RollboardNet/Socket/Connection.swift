#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
package import Dispatch
import Logging
import Synchronization

/// One TCP connection, accepted by the server or connecting out (`Connection.connect`): its descriptor, Dispatch
/// sources, optional TLS session (server or client side) and outbound buffer.
///
/// It only moves bytes: what they mean is up to its `handler`. All mutable state is touched only on `queue`, its
/// `EventLoop`'s serial queue (shared by the loop's connections, so work for many of them can run in one block);
/// `isWritable` and `bufferedBytes` are atomics readable from anywhere.
package final class Connection: @unchecked Sendable {  // Mutable state is confined to `queue` (checked with dispatchPrecondition); the rest are atomics and lets.
    /// Limits and timeouts a connection needs from the server configuration.
    package struct Options: Sendable {
        var highWatermark = ServerConfiguration.Defaults.outboundHighWatermark
        var lowWatermark = ServerConfiguration.Defaults.outboundLowWatermark
        /// Beyond this many buffered bytes the peer is taken to be stuck and the connection is dropped.
        var maxBufferedBytes = 64 * 1024 * 1024
        package var tlsHandshakeTimeout: Duration = .seconds(10)
        /// How long a closing connection may take to flush and see the peer's FIN.
        var closeTimeout: Duration = .seconds(5)
        /// How long an outbound TCP connect may take.
        package var connectTimeout: Duration = .seconds(10)

        package init() {}
    }

    enum State {
        /// An outbound connect is under way: the write source tells when it ends.
        case connecting(deadline: ContinuousClock.Instant)
        case handshaking(deadline: ContinuousClock.Instant)
        case active
        /// Flushing what is buffered, then half-closed and waiting for the peer's FIN, until the deadline (pushed
        /// back while the peer keeps taking bytes, so a slow reader still gets the end).
        case closing(deadline: ContinuousClock.Instant)
        case closed
    }

    package let queue: DispatchQueue
    let loop: EventLoop
    let logger: Logger
    let fd: Int32
    /// The client's IP address, when the socket was accepted from one.
    let peerAddress: PeerAddress?
    /// Where an outbound connection connects to (`nil` for an accepted one), for messages.
    package let remote: String?
    /// Whether the peer's first bytes went to TLS (a plain HTTP request is answered in clear text instead).
    var isTLSStarted = false
    let options: Options
    let onClose: @Sendable () -> Void
    let writable = Atomic<Bool>(true)
    let buffered = Atomic<Int>(0)

    // Confined to `queue`.
    var handler: (any ConnectionHandler)?
    var state: State
    var tls: TLSConnection?
    var outbound = OutboundBuffer()
    /// Application bytes batched by `appendToBatch` for the end of this turn of the queue.
    var batch: [UInt8] = []
    var readSource: (any DispatchSourceRead)?
    var writeSource: (any DispatchSourceWrite)?
    var isReadSuspended = false
    var isReadPausedByHandler = false
    var isWriteArmed = false
    var liveSources = 0
    /// True while a read is handled: what it sends is written once, when it ends.
    var defersFlush = false
    var isFlushScheduled = false
    var sentFIN = false
    /// While closing: the bytes the peer had not yet taken when the deadline was last pushed back.
    var undeliveredWhenClosing = Int.max
    /// Why the connection failed, once it has (read it in `connectionDidClose`).
    package internal(set) var failure: ConnectionFailure?

    /// An accepted connection: the server side of TLS with `tls`, or plain.
    convenience init(
        fd: Int32, loop: EventLoop, tls: TLSContext?, options: Options, logger: Logger, peerAddress: PeerAddress? = nil,
        onClose: @escaping @Sendable () -> Void
    ) throws(TLSError) {
        let session = try tls.map { context throws(TLSError) in try TLSConnection(context: context) }
        self.init(
            fd: fd, loop: loop, session: session, options: options, logger: logger, peerAddress: peerAddress,
            state: session == nil ? .active : .handshaking(deadline: .now + options.tlsHandshakeTimeout),
            remote: nil, onClose: onClose)
    }

    init(
        fd: Int32, loop: EventLoop, session: TLSConnection?, options: Options, logger: Logger,
        peerAddress: PeerAddress?, state: State, remote: String?, onClose: @escaping @Sendable () -> Void
    ) {
        self.fd = fd
        self.peerAddress = peerAddress
        self.remote = remote
        self.loop = loop
        self.queue = loop.queue
        self.options = options
        self.logger = logger
        self.onClose = onClose
        self.tls = session
        self.state = state
    }

    /// Whether this connection connected out rather than being accepted.
    var isOutbound: Bool { remote != nil }

    /// False while more than the high watermark is buffered, until it falls below the low watermark.
    package var isWritable: Bool { writable.load(ordering: .relaxed) }

    /// Bytes queued for the peer and not yet written to the socket.
    package var bufferedBytes: Int { buffered.load(ordering: .relaxed) }

    /// Runs `body` on the connection's queue: at once when already there (keeping order with the callback
    /// in progress), otherwise asynchronously.
    package func execute(_ body: @escaping @Sendable (Connection) -> Void) {
        if loop.isCurrent {
            body(self)
        } else {
            queue.async { body(self) }
        }
    }

    /// Whether the connection speaks TLS.
    package var isSecure: Bool { tls != nil }

    /// The negotiated TLS protocol name (e.g. `TLSv1.3`), or `nil` without TLS.
    package var tlsVersion: String? { tls?.protocolVersion }

    /// Starts reading with `handler` in charge. Call once, on `queue`.
    func start(handler: any ConnectionHandler) {
        dispatchPrecondition(condition: .onQueue(queue))
        self.handler = handler
        loop.register(self)
        beginReading()
    }

    /// Sets `TCP_NODELAY`, starts the read source and, in plain mode, tells the handler the connection is active.
    func beginReading() {
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        source.setEventHandler { self.readable() }  // a strong reference, as the cancel handler's: both are released on cancel
        source.setCancelHandler { self.sourceCancelled() }
        liveSources += 1
        readSource = source
        source.resume()
        if case .active = state {
            handler?.connectionDidBecomeActive(self)
            flushNow()
        }
    }
}
