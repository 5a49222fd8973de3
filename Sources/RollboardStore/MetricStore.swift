public import Dispatch
public import Foundation
public import Logging
public import RollboardConfig
public import RollboardCore
import Synchronization

/// The embedded change log: metric values, wheel targets, text tiles' messages, carousels' slides and carousel
/// commands in an append-only journal with group commit, plus a snapshot it is compacted into. See `docs/store.md`.
///
/// Every change gets the next number of one global sequence. A completion reports success only after the change
/// is on disk (written and fsynced); changes that arrive while an fsync is in flight are written together by the
/// next one. Subscribers learn of committed changes in sequence order, before the completions run.
public final class MetricStore: ChangeLog {
    /// Identifies this store's history: stays the same across restarts, changes only when the data is wiped.
    /// 16 hex digits.
    public let epoch: String
    public let directory: String
    /// Past values kept per metric (the current one included).
    public let historyLimit: Int
    let epochValue: UInt64
    /// Monotonic seconds for the journal's upkeep, and the one timer that brings its next try after a full disk.
    let upkeepClock: FrameClock
    let upkeepTimer: any ClockTimer
    let logger: Logger
    private let clock: @Sendable () -> Double
    let queue: DispatchQueue
    let file: JournalFile
    let state: Mutex<State>
    private let subscribers = Mutex<[@Sendable (StoreChange) -> Void]>([])
    private let commitObservers = Mutex<[@Sendable (Double) -> Void]>([])

    struct Pending {
        var record: StoreChange
        var complete: @Sendable (Result<StoreChange, StoreError>) -> Void
        /// When the change was handed to the store (monotonic seconds).
        var enqueuedAt: Double
    }

    struct State {
        var model: StoreModel
        var nextSeq: UInt64
        var pending: [Pending] = []
        var flushing = false
        var failure: StoreError?
        /// Whether `failure` is a clean write failure that a later try of the journal may clear.
        var failureIsRetryable = false
        /// When to compact and when to try the journal again.
        var upkeep: JournalUpkeep
        var statistics = StoreStatistics()
        /// When the oldest change of the write in progress was handed to the store (monotonic seconds), `nil` while
        /// no write is in progress.
        var inFlightSince: Double?
        /// The latest value of each metric a change not yet durable sets: increments numbered after it count from it.
        var tentative: [String: StoredMetric] = [:]
        /// The board of each leaderboard a change not yet durable sets: edits numbered after it resolve against it.
        var tentativeBoards: [String: StoredLeaderboard] = [:]
        /// The idempotency keys of changes not yet durable: a retry waits for their answer.
        var pendingKeys: Set<String> = []

        /// Numbers `record` and queues it for the next write; `true` when no write is in progress to take it.
        mutating func admit(
            _ record: StoreChange, at enqueuedAt: Double,
            _ complete: @escaping @Sendable (Result<StoreChange, StoreError>) -> Void
        ) -> Bool {
            nextSeq += UInt64(record.sequenceCount)
            pending.append(Pending(record: record, complete: complete, enqueuedAt: enqueuedAt))
            switch record {
            case .metrics(let metrics):
                for metric in metrics { tentative[metric.id] = metric }
                pendingKeys.formUnion(Self.memoryKeys(metrics))
            case .leaderboard(let board):
                tentativeBoards[board.id] = board
                if let key = board.requestKey { pendingKeys.insert(IdempotencyMemory.boardKey(key)) }
            default:
                break
            }
            if flushing { return false }
            flushing = true
            return true
        }

        /// Once `record` is durable (and in the model): its values and keys are no longer tentative.
        mutating func settle(_ record: StoreChange) {
            switch record {
            case .metrics(let metrics):
                for metric in metrics where tentative[metric.id]?.seq == metric.seq { tentative[metric.id] = nil }
                pendingKeys.subtract(Self.memoryKeys(metrics))
            case .leaderboard(let board):
                if tentativeBoards[board.id]?.seq == board.seq { tentativeBoards[board.id] = nil }
                if let key = board.requestKey { pendingKeys.remove(IdempotencyMemory.boardKey(key)) }
            default:
                break
            }
        }

        static func memoryKeys(_ metrics: [StoredMetric]) -> [String] {
            (metrics.first?.requestKey.map { [IdempotencyMemory.requestKey($0)] } ?? [])
                + metrics.compactMap { $0.eventID.map(IdempotencyMemory.eventKey) }
        }
    }

    /// Opens (or creates) the store in `directory`, recovering every change that was acknowledged.
    ///
    /// For fault tests against a real server, `ROLLBOARD_STORE_FAULTS` in the environment injects failures into the
    /// store's file operations (see `EnvironmentFaults.environmentVariable`); it is logged as a warning.
    ///
    /// - Parameters:
    ///   - historyLimit: past values kept per metric.
    ///   - compactionThreshold: journal size in bytes above which it is compacted into the snapshot.
    ///   - clock: wall-clock seconds since 1970, stamped on each change as `updatedAt` (default: the system clock).
    public convenience init(
        directory: String,
        historyLimit: Int = ServerSettings.Defaults.historyLength,
        seriesLimits: SeriesLimits = SeriesLimits(),
        compactionThreshold: Int = ServerSettings.Defaults.journalCompactionBytes,
        idempotencyBudget: Int = ServerSettings.Defaults.idempotencyMemoryBytes,
        logger: Logger,
        clock: (@Sendable () -> Double)? = nil
    ) throws(StoreError) {
        try self.init(
            directory: directory, historyLimit: historyLimit, seriesLimits: seriesLimits,
            compactionThreshold: compactionThreshold, idempotencyBudget: idempotencyBudget, logger: logger,
            clock: clock, upkeepClock: NodeClock.system.monotonic)
    }

    /// As the public initializer, its upkeep and its waits timed by `upkeepClock` (the node's monotonic clock).
    package convenience init(
        directory: String,
        historyLimit: Int = ServerSettings.Defaults.historyLength,
        seriesLimits: SeriesLimits = SeriesLimits(),
        compactionThreshold: Int = ServerSettings.Defaults.journalCompactionBytes,
        idempotencyBudget: Int = ServerSettings.Defaults.idempotencyMemoryBytes,
        logger: Logger,
        clock: (@Sendable () -> Double)?,
        upkeepClock: FrameClock
    ) throws(StoreError) {
        let faults = try EnvironmentFaults.parse(ProcessInfo.processInfo.environment[EnvironmentFaults.environmentVariable])
        if faults != nil {
            logger.warning(
                "fault injection is active: the store will fail on purpose",
                metadata: ["faults": "\(ProcessInfo.processInfo.environment[EnvironmentFaults.environmentVariable] ?? "")"])
        }
        try self.init(
            directory: directory, historyLimit: historyLimit, seriesLimits: seriesLimits,
            compactionThreshold: compactionThreshold, idempotencyBudget: idempotencyBudget, logger: logger,
            clock: clock, faults: faults, upkeepClock: upkeepClock)
    }

    /// The store with `faults` injected into its file operations, its upkeep timed by `upkeepClock` (for tests).
    init(
        directory: String,
        historyLimit: Int = ServerSettings.Defaults.historyLength,
        seriesLimits: SeriesLimits = SeriesLimits(),
        compactionThreshold: Int = ServerSettings.Defaults.journalCompactionBytes,
        idempotencyBudget: Int = ServerSettings.Defaults.idempotencyMemoryBytes,
        logger: Logger,
        clock: (@Sendable () -> Double)? = nil,
        faults: (any JournalFaults)?,
        upkeepClock: FrameClock = NodeClock.system.monotonic
    ) throws(StoreError) {
        precondition(historyLimit > 0, "historyLimit must be positive")
        let queue = DispatchQueue(label: "rollboard.store")
        let opened = try JournalFile.open(
            directory: directory, historyLimit: historyLimit, seriesLimits: seriesLimits,
            idempotencyBudget: idempotencyBudget, queue: queue, logger: logger, faults: faults)
        self.directory = directory
        self.historyLimit = historyLimit
        self.upkeepClock = upkeepClock
        self.upkeepTimer = upkeepClock.makeTimer(queue)
        self.logger = logger
        self.clock = clock ?? NodeClock.system.wall.now
        self.queue = queue
        self.file = opened.file
        self.epochValue = opened.epoch
        self.epoch = hex(opened.epoch)
        var statistics = StoreStatistics()
        statistics.recoveredRecords = opened.recoveredRecords
        statistics.discardedBytes = opened.discardedBytes
        self.state = Mutex(
            State(
                model: opened.model, nextSeq: opened.model.lastSeq + 1,
                upkeep: JournalUpkeep(threshold: compactionThreshold, retryInterval: Self.writeRetryInterval),
                statistics: statistics))
        logger.info(
            "store opened",
            metadata: [
                "directory": "\(directory)", "epoch": "\(epoch)", "lastSeq": "\(opened.model.lastSeq)",
                "metrics": "\(opened.model.metrics.count)", "replayedRecords": "\(opened.recoveredRecords)",
            ]
        )
        upkeepTimer.activate { [weak self] in
            guard let self else { return }
            perform(state.withLock { $0.upkeep.timerFired(now: upkeepClock.now()) })
        }
    }

    deinit {
        upkeepTimer.cancel()
    }

    public func commit(
        _ change: StoreChange, completion: @escaping @Sendable (Result<StoreChange, StoreError>) -> Void
    ) {
        enqueue({ seq, now in change.restamped(adding: seq).stamped(at: now) }, count: change.sequenceCount, completion)
    }

    func enqueue(
        _ makeRecord: (UInt64, Double) -> StoreChange,
        count: Int,
        _ completion: @escaping @Sendable (Result<StoreChange, StoreError>) -> Void
    ) {
        let now = clock()
        let enqueuedAt = upkeepClock.now()
        let outcome: StoreError?? = state.withLock { state in
            if let failure = state.failure { return .some(failure) }
            return state.admit(makeRecord(state.nextSeq, now), at: enqueuedAt, completion) ? nil : .some(nil)
        }
        switch outcome {
        case .some(let failure?): completion(.failure(failure))
        case .some(nil): break
        case nil: queue.async { self.flush() }
        }
    }

    /// Resolves `request` in the store's order, under the lock that numbers changes: increments count from the
    /// latest value (durable or already numbered), keys remembered for a day answer with their earlier commit, and a
    /// retry whose key belongs to a change still being written waits for that change's answer.
    public func commitMetrics(
        _ request: MetricCommitRequest,
        completion: @escaping @Sendable (Result<MetricCommitOutcome, MetricCommitError>) -> Void
    ) {
        commitResolved(
            keys: request.memoryKeys, failure: MetricCommitError.store,
            again: { self.commitMetrics(request, completion: completion) }, completion: completion
        ) { state, now in
            let resolution = MetricCommitResolver.resolve(
                request, remembered: { state.model.idempotency.lookup($0, at: now) },
                latest: { state.tentative[$0] ?? state.model.metrics[$0]?.current })
            switch resolution {
            case .replay(let outcome): return .answer(.success(outcome))
            case .refused(let error): return .answer(.failure(error))
            case .commit(let metrics, let slots, _):
                return .commit(.metrics(metrics)) { committed in
                    guard case .metrics(let parts) = committed else { preconditionFailure("a metric batch") }
                    return MetricCommitResolver.outcome(slots, committed: parts)
                }
            }
        }
    }

    /// How a write resolved against the store's state: answered at once, or a change to number and commit, with
    /// the answer its committed form gives.
    enum Resolved<Success: Sendable, Failure: Error> {
        case answer(Result<Success, Failure>)
        case commit(StoreChange, @Sendable (StoreChange) -> Success)
    }

    /// Resolves a write with `resolve` under the lock that numbers changes (given the state and the commit time) and
    /// numbers the change it gives before the lock is let go, so writes that read the latest state (increments,
    /// leaderboard edits, idempotency keys) follow the journal's order. A write one of whose memory `keys` belongs to
    /// a change still being written runs `again` once that change is answered.
    func commitResolved<Success: Sendable, Failure: Error>(
        keys: [String], failure: @escaping @Sendable (StoreError) -> Failure, again: @escaping @Sendable () -> Void,
        completion: @escaping @Sendable (Result<Success, Failure>) -> Void,
        resolve: (inout State, Double) -> Resolved<Success, Failure>
    ) {
        let now = clock()
        let enqueuedAt = upkeepClock.now()
        let step: ResolvedStep<Success, Failure> = state.withLock { state in
            if let error = state.failure { return .answer(.failure(failure(error))) }
            if keys.contains(where: state.pendingKeys.contains) { return .waitForPending }
            switch resolve(&state, now) {
            case .answer(let result):
                return .answer(result)
            case .commit(let change, let answer):
                let record = change.restamped(adding: state.nextSeq).stamped(at: now)
                return .queued(
                    startWriting: state.admit(record, at: enqueuedAt) { completion($0.map(answer).mapError(failure)) })
            }
        }
        switch step {
        case .answer(let result): completion(result)
        case .waitForPending: queue.async(execute: again)
        case .queued(let start): if start { queue.async { self.flush() } }
        }
    }

    /// Writes and fsyncs everything pending, over and over, until nothing is pending. Runs on `queue`.
    private func flush() {
        dispatchPrecondition(condition: .onQueue(queue))
        while true {
            let batch: [Pending] = state.withLock { state in
                let batch = state.pending
                state.pending = []
                if batch.isEmpty { state.flushing = false }
                return batch
            }
            if batch.isEmpty { return }
            var bytes: [UInt8] = []
            for pending in batch { bytes += pending.record.framed }
            let started = upkeepClock.now()
            state.withLock { $0.inFlightSince = batch.first?.enqueuedAt }
            do {
                try file.appendAndSync(bytes)
            } catch {
                switch error {
                case .notWritten(let reason):
                    fail(batch, StoreError.writeFailed(reason.description, retrying: true), retrying: true)
                case .unknownState(let reason):
                    fail(batch, StoreError.writeFailed(reason.description))
                }
                return
            }
            let seconds = upkeepClock.now() - started
            let upkeep = state.withLock { state in
                state.inFlightSince = nil
                for pending in batch {
                    state.model.apply(pending.record)
                    state.settle(pending.record)
                }
                state.statistics.commits += batch.count
                state.statistics.syncs += 1
                state.statistics.journalBytesWritten += bytes.count
                state.statistics.syncSeconds += seconds
                return state.upkeep.wrote(journalSize: file.size)
            }
            for observer in commitObservers.withLock({ $0 }) { observer(seconds) }
            let handlers = subscribers.withLock { $0 }
            for pending in batch {
                let change = pending.record
                for handler in handlers { handler(change) }
                pending.complete(.success(change))
            }
            perform(upkeep)
        }
    }

    /// Refuses later changes (`.closed`), lets the pending ones be written, then closes the journal and calls
    /// `completion` (on the store's queue).
    public func close(completion: @escaping @Sendable () -> Void) {
        queue.async { [self] in
            perform(
                state.withLock { state in
                    if state.failure == nil || state.failureIsRetryable { state.failure = .closed }
                    state.failureIsRetryable = false
                    return state.upkeep.close()
                })
            file.close()
            upkeepTimer.cancel()
            completion()
        }
    }

    /// Registers `handler` for every change committed from now on, in sequence order, on the store's queue.
    /// It should hand work off quickly; it must not call `compact()` or `close()`.
    public func subscribe(_ handler: @escaping @Sendable (StoreChange) -> Void) {
        subscribers.withLock { $0.append(handler) }
    }

    /// Registers `observer` for the duration in seconds of every durable commit (one write and fsync, however many
    /// changes it carries); called on the store's queue.
    public func observeCommits(_ observer: @escaping @Sendable (Double) -> Void) {
        commitObservers.withLock { $0.append(observer) }
    }

    /// Every value, target, text and slide set as the committed changes left them.
    public var snapshot: StoreSnapshot {
        state.withLock { StoreSnapshot(model: $0.model) }
    }

    /// The journal's changes always reach this node's subscribers.
    public var isFeedLive: Bool { true }

    /// The journal's changes always reach this node's subscribers: `observer` is never called.
    public func observeFeed(_ observer: @escaping @Sendable (Bool) -> Void) {}

    /// Why the store accepts no more changes, or `nil` while it is healthy.
    public var failure: StoreError? {
        state.withLock { $0.failure }
    }

    /// How long the oldest change not yet confirmed by the disk has waited, in seconds; `nil` when every change
    /// handed to the store is confirmed (or refused).
    public var unconfirmedSeconds: Double? {
        let now = upkeepClock.now()
        return state.withLock { state in
            let oldest = [state.inFlightSince, state.pending.first?.enqueuedAt].compactMap { $0 }.min()
            return oldest.map { now - $0 }
        }
    }

    /// Counters since the store opened.
    public var statistics: StoreStatistics {
        state.withLock { $0.statistics }
    }
}

/// What `MetricStore.commitResolved` does once it lets the lock go.
private enum ResolvedStep<Success, Failure: Error> {
    case answer(Result<Success, Failure>)
    case waitForPending
    case queued(startWriting: Bool)
}
