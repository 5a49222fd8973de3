#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Logging
import Synchronization

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

    enum State {
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
    let fd: Int32
    /// The client's IP address, when the socket was accepted from one.
    let peerAddress: PeerAddress?
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
}
