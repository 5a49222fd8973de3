public import Dispatch
public import Logging
public import RollboardAnimation
public import RollboardConfig
public import RollboardCore
public import RollboardMetrics
public import RollboardNet
public import RollboardRedis
public import RollboardStore
public import RollboardStore
import Synchronization

/// The change log that several nodes share: every change is appended to one Redis Stream, and the latest value of
/// each metric, wheel, text and slide set kept in a hash, by one Lua script (atomically, with the next number of a
/// shared sequence); a completion reports success only once Redis answered. Every node, the writing one included,
/// learns of changes by reading the stream, so each sees them in the stream's order.
///
/// While Redis is out of reach, changes are refused (`StoreError.unreachable`) and the feed observers hear `false`;
/// the node reconnects with backoff, reads the stream from where it stopped (or, if the stream was trimmed past that
/// point, reloads the latest values) and tells the observers `true`. A Redis that comes back without this cluster's
/// history is seeded again by one node and adopted by the others (see `RedisChangeLog+Recovery.swift`). See
/// `docs/cluster.md`.
public final class RedisChangeLog: ChangeLog {
    /// The cluster's epoch; empty until the log first opened.
    public var epoch: String {
        state.withLock { $0.epoch }
    }
    let keys: RedisKeys
    let streamLength: Int
    /// The connections' configuration; with Sentinel its address is the primary's once found
    /// (``connectionConfiguration``).
    let baseConfiguration: RedisConnection.Configuration
    /// One per Sentinel (`redis.sentinels`), and the name they monitor the primary under; empty without Sentinel.
    let sentinelConfigurations: [RedisConnection.Configuration]
    let sentinelMaster: String
    /// Replicas that must confirm each change before it is acknowledged, and for how long they may take
    /// (`redis.ackReplicas`, `redis.ackTimeout`).
    let acknowledgement: (replicas: Int, timeout: Double)
    let historyLimit: Int
    /// How long and how much of each metric's series this node keeps.
    let seriesLimits: SeriesLimits
    /// Bytes the cluster's idempotency keys may take in Redis (``IdempotencyMemory/cost(key:answer:)`` summed).
    let idempotencyBudget: Int
    let logger: Logger
    let clock: @Sendable () -> Double
    /// Reconnections are planned on this queue; each connection's replies arrive on the connection's own queue.
    let queue = DispatchQueue(label: "rollboard.redis")
    let state: Mutex<State>
    /// The node's monotonic clock: the link's backoff, its pings, the writes' latencies; and the timer that brings
    /// the link's next opening or reconnection.
    let linkClock: FrameClock
    let linkTimer: any ClockTimer
    /// Pings Redis once a second (on `queue`, on `linkClock`) once the log opened.
    let pingTimer: any ClockTimer
    let subscribers = Mutex<[@Sendable (StoreChange) -> Void]>([])
    let commitObservers = Mutex<[@Sendable (Double) -> Void]>([])
    let feedObservers = Mutex<[@Sendable (Bool) -> Void]>([])
    /// Metric batches with increments, one at a time (see `RedisChangeLog+Metrics.swift`).
    let incrementLane = CommitLane<StoredMetric>()
    /// Leaderboard edits, one at a time (see `RedisChangeLog+Leaderboards.swift`).
    let leaderboardLane = CommitLane<StoredLeaderboard>()

    /// Changes read per `XREAD`; a shorter answer means this node has caught up.
    static let readCount = 512
    /// Milliseconds one `XREAD` blocks for when nothing is new.
    static let blockMilliseconds = 2_000
    /// Seconds a write or a ping may wait for Redis's answer before the connection counts as lost.
    package static let commandTimeout = 3.0
    /// Seconds between two pings.
    static let pingInterval = 1.0
    /// Seconds a closing log gives the writes in flight to be answered before it disconnects.
    static let closeGrace = 2.0

    struct State {
        /// The cluster's epoch, learnt when the log opens.
        var epoch = ""
        var model: StoreModel
        /// The id of the last stream entry applied.
        var position: String
        /// Whether the last entry read was of a kind this node does not know: the sequence numbers up to the next
        /// entry's are that change's (it may be a batch), not a gap.
        var skippedUnknownKind = false
        /// The link's lifecycle: losses, reconnections with backoff, catching up, closing.
        var link = RedisLinkMachine()
        /// Recovering a Redis that lost this cluster's data (while the link is `.recovering`), and where it started.
        var recovery = RedisRecoveryMachine()
        var recoveryStart = RecoveryStart()
        /// The idempotency keys of the changes read last, seeded with the values after a loss.
        var recentKeys = RecentIdempotencyKeys()
        /// Finds the primary through Sentinel before each opening and reconnection; `nil` without Sentinel.
        var sentinel: SentinelMachine?
        /// With Sentinel and `ackReplicas`, the replica the reader follows the stream on (see ``readerConfiguration``).
        var readerReplica: SentinelMachine.Address?
        /// Bumped on every loss and on closing: replies from an older connection are ignored.
        var generation: Int { link.generation }
        var writer: RedisConnection?
        var reader: RedisConnection?
        var failure: StoreError?
        var isFeedLive: Bool { link.isFeedLive }
        var isClosed: Bool { link.phase == .closed }
        /// When each write in flight started (monotonic seconds), by ticket.
        var inFlight: [Int: Double] = [:]
        var nextTicket = 0
        var statistics = RedisStatistics()
        /// Whether the ping timer runs (from the first opening until the log closes).
        var isPinging = false
        /// Who waits for ``close(completion:)`` to finish; `nil` once it has (or before it was called).
        var closeWaiters: [@Sendable () -> Void]?
        /// Whether the log has closed: disconnected, and its waiters told.
        var hasClosed = false

        init(model: StoreModel, position: String, failure: StoreError?) {
            self.model = model
            self.position = position
            self.failure = failure
        }
    }

    /// Builds the log without connecting: until ``start()`` opens it (connects, agrees on the shared epoch, loads the
    /// latest values) changes are refused and the feed is not live; a Redis that does not answer is waited for with
    /// backoff while the node serves.
    ///
    /// - Parameters:
    ///   - historyLimit: past values kept per metric (from the changes this node saw).
    ///   - clock: wall-clock seconds since 1970, stamped on each change (default: the system clock).
    public convenience init(
        settings: RedisSettings,
        historyLimit: Int = ServerSettings.Defaults.historyLength,
        seriesLimits: SeriesLimits = SeriesLimits(),
        idempotencyBudget: Int = ServerSettings.Defaults.idempotencyMemoryBytes,
        logger: Logger,
        clock: (@Sendable () -> Double)? = nil
    ) throws {
        try self.init(
            settings: settings, historyLimit: historyLimit, seriesLimits: seriesLimits,
            idempotencyBudget: idempotencyBudget, logger: logger, clock: clock, linkClock: NodeClock.system.monotonic)
    }

    /// As the public initializer, the link timed by `linkClock` (the node's monotonic clock).
    package init(
        settings: RedisSettings,
        historyLimit: Int,
        seriesLimits: SeriesLimits,
        idempotencyBudget: Int = ServerSettings.Defaults.idempotencyMemoryBytes,
        logger: Logger,
        clock: (@Sendable () -> Double)?,
        linkClock: FrameClock
    ) throws {
        (baseConfiguration, sentinelConfigurations) = try Self.configurations(settings)
        self.sentinelMaster = settings.sentinel?.master ?? ""
        self.acknowledgement = (settings.ackReplicas, settings.ackTimeout)
        self.keys = RedisKeys(prefix: settings.keyPrefix)
        self.streamLength = settings.streamLength
        self.historyLimit = historyLimit
        self.seriesLimits = seriesLimits
        self.idempotencyBudget = idempotencyBudget
        self.logger = logger
        self.clock = clock ?? NodeClock.system.wall.now
        self.linkClock = linkClock
        self.linkTimer = linkClock.makeTimer(queue)
        self.pingTimer = linkClock.makeTimer(queue)
        self.state = Mutex(
            State(model: Self.emptyModel(historyLimit: historyLimit, seriesLimits: seriesLimits), position: "0",
                  failure: .unreachable(RedisLinkMachine.notOpenedYet)))
        if !sentinelConfigurations.isEmpty {
            state.withLock { state in
                state.sentinel = SentinelMachine(sentinelCount: sentinelConfigurations.count)
                state.link = RedisLinkMachine(ceiling: RedisSettings.Defaults.sentinelRetryCeiling)
            }
        }
        linkTimer.activate { [weak self] in self?.linkTimerFired() }
        pingTimer.activate { [weak self] in self?.pingTimerFired() }
    }

    /// Opens the log: call once every subscriber is registered, so none misses the values it loads. Returns at once;
    /// the opening is tried again with backoff (each failure logged) until Redis answers, then the log follows the
    /// stream.
    public func start() {
        queue.async { [self] in perform(state.withLock { $0.link.start() }) }
    }

    deinit {
        pingTimer.cancel()
        linkTimer.cancel()
    }

    // MARK: ChangeLog

    public var snapshot: StoreSnapshot {
        state.withLock { StoreSnapshot(model: $0.model) }
    }

    public var failure: StoreError? {
        state.withLock { $0.failure }
    }

    public var unconfirmedSeconds: Double? {
        let now = linkClock.now()
        return state.withLock { $0.inFlight.values.min() }.map { now - $0 }
    }

    /// Whether Redis answers and this node has read the stream up to its end.
    public var isFeedLive: Bool {
        state.withLock { $0.isFeedLive }
    }

    /// Counters and the latest latency and lag readings.
    public var statistics: RedisStatistics {
        state.withLock { $0.statistics }
    }

    public func commit(
        _ change: StoreChange, completion: @escaping @Sendable (Result<StoreChange, StoreError>) -> Void
    ) {
        let stamped = change.stamped(at: clock())
        send(stamped) { result in
            completion(
                result.flatMap { reply in
                    guard case .appended(let first) = reply else {
                        return .failure(.unreachable("Redis refused an unguarded change as stale"))
                    }
                    return .success(stamped.restamped(adding: first))
                })
        }
    }

    public func subscribe(_ handler: @escaping @Sendable (StoreChange) -> Void) {
        subscribers.withLock { $0.append(handler) }
    }

    public func observeFeed(_ observer: @escaping @Sendable (Bool) -> Void) {
        feedObservers.withLock { $0.append(observer) }
    }

    public func observeCommits(_ observer: @escaping @Sendable (Double) -> Void) {
        commitObservers.withLock { $0.append(observer) }
    }

    /// Refuses new changes and gives the writes in flight up to ``closeGrace`` seconds (on the link's clock, its one
    /// timer) to be answered; then disconnects and calls `completion` (on the log's queue). Nothing waits meanwhile.
    public func close(completion: @escaping @Sendable () -> Void) {
        enum Step {
            case close([RedisLinkMachine.Action])
            case wait
            case done
        }
        let step: Step = state.withLock { state in
            if state.hasClosed { return .done }
            if state.closeWaiters != nil {
                state.closeWaiters?.append(completion)
                return .wait
            }
            state.failure = .closed
            state.isPinging = false
            state.closeWaiters = [completion]
            return .close(state.link.close())
        }
        switch step {
        case .done: queue.async(execute: completion)
        case .wait: break
        case .close(let actions):
            queue.async { [self] in
                perform(actions)
                pingTimer.cancel()
                if state.withLock({ $0.inFlight.isEmpty }) {
                    finishClosing()
                } else {
                    linkTimer.arm(at: linkClock.now() + Self.closeGrace)
                }
            }
        }
    }

    /// The writes in flight were answered, or their grace ran out: disconnects and tells who waits for the close.
    func finishClosing() {
        dispatchPrecondition(condition: .onQueue(queue))
        let (waiters, writer, reader) = state.withLock { state in
            defer {
                state.closeWaiters = nil
                state.hasClosed = true
                state.writer = nil
                state.reader = nil
            }
            return (state.hasClosed ? [] : state.closeWaiters ?? [], state.writer, state.reader)
        }
        linkTimer.arm(at: nil)
        writer?.close()
        reader?.close()
        for waiter in waiters { waiter() }
    }
}

