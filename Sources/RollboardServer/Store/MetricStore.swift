import Dispatch
import Foundation
public import Logging
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
    private let epochValue: UInt64
    private let compactionThreshold: Int
    /// Seconds between tries of a journal whose write failed cleanly.
    private let retryInterval: Double
    private let logger: Logger
    private let clock: @Sendable () -> Double
    private let queue: DispatchQueue
    private let file: JournalFile
    private let state: Mutex<State>
    private let subscribers = Mutex<[@Sendable (StoreChange) -> Void]>([])
    private let commitObservers = Mutex<[@Sendable (Double) -> Void]>([])
    /// Per leaderboard, the last board numbered and its sequence number (see `MetricStore+Leaderboards.swift`).
    let leaderboardLane = Mutex<[String: StoredLeaderboard]>([:])

    private struct Pending {
        var record: StoreChange
        var complete: @Sendable (Result<StoreChange, StoreError>) -> Void
        /// When the change was handed to the store (monotonic seconds).
        var enqueuedAt: Double
    }

    private struct State {
        var model: StoreModel
        var nextSeq: UInt64
        var pending: [Pending] = []
        var flushing = false
        var failure: StoreError?
        /// Whether `failure` is a clean write failure that `retryWriting` may clear.
        var failureIsRetryable = false
        var statistics = StoreStatistics()
        /// When the oldest change of the write in progress was handed to the store (monotonic seconds), `nil` while
        /// no write is in progress.
        var inFlightSince: Double?
        /// After a failed compaction: the journal size at which the next attempt is made.
        var compactionRetrySize: Int?
    }

    /// Opens (or creates) the store in `directory`, recovering every change that was acknowledged.
    ///
    /// For fault tests against a real server, `ROLLBOARD_STORE_FAULTS` in the environment injects failures into the
    /// store's file operations (see `StoreFaults.environmentVariable`); it is logged as a warning.
    ///
    /// - Parameters:
    ///   - historyLimit: past values kept per metric.
    ///   - compactionThreshold: journal size in bytes above which it is compacted into the snapshot.
    ///   - clock: wall-clock seconds since 1970, stamped on each change as `updatedAt` (default: the system clock).
    public convenience init(
        directory: String,
        historyLimit: Int = ServerSettings.Defaults.historyLength,
        compactionThreshold: Int = ServerSettings.Defaults.journalCompactionBytes,
        logger: Logger,
        clock: (@Sendable () -> Double)? = nil
    ) throws(StoreError) {
        let faults = try StoreFaults.parse(ProcessInfo.processInfo.environment[StoreFaults.environmentVariable])
        if faults != nil {
            logger.warning(
                "fault injection is active: the store will fail on purpose",
                metadata: ["faults": "\(ProcessInfo.processInfo.environment[StoreFaults.environmentVariable] ?? "")"])
        }
        try self.init(
            directory: directory, historyLimit: historyLimit, compactionThreshold: compactionThreshold, logger: logger,
            clock: clock, faults: faults)
    }

    /// The store with `faults` injected into its file operations (for tests).
    init(
        directory: String,
        historyLimit: Int = ServerSettings.Defaults.historyLength,
        compactionThreshold: Int = ServerSettings.Defaults.journalCompactionBytes,
        logger: Logger,
        clock: (@Sendable () -> Double)? = nil,
        faults: StoreFaults?,
        writeRetryInterval: Double = MetricStore.writeRetryInterval
    ) throws(StoreError) {
        precondition(historyLimit > 0, "historyLimit must be positive")
        self.retryInterval = writeRetryInterval
        let queue = DispatchQueue(label: "rollboard.store")
        let opened = try JournalFile.open(
            directory: directory, historyLimit: historyLimit, queue: queue, logger: logger, faults: faults)
        self.directory = directory
        self.historyLimit = historyLimit
        self.compactionThreshold = compactionThreshold
        self.logger = logger
        self.clock = clock ?? { wallClock() }
        self.queue = queue
        self.file = opened.file
        self.epochValue = opened.epoch
        self.epoch = hex(opened.epoch)
        var statistics = StoreStatistics()
        statistics.recoveredRecords = opened.recoveredRecords
        statistics.discardedBytes = opened.discardedBytes
        self.state = Mutex(State(model: opened.model, nextSeq: opened.model.lastSeq + 1, statistics: statistics))
        logger.info(
            "store opened",
            metadata: [
                "directory": "\(directory)", "epoch": "\(epoch)", "lastSeq": "\(opened.model.lastSeq)",
                "metrics": "\(opened.model.metrics.count)", "replayedRecords": "\(opened.recoveredRecords)",
            ]
        )
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
        let outcome: StoreError?? = state.withLock { state in
            if let failure = state.failure { return .some(failure) }
            let record = makeRecord(state.nextSeq, now)
            state.nextSeq += UInt64(count)
            state.pending.append(Pending(record: record, complete: completion, enqueuedAt: monotonicSeconds()))
            if state.flushing { return .some(nil) }
            state.flushing = true
            return nil
        }
        switch outcome {
        case .some(let failure?): completion(.failure(failure))
        case .some(nil): break
        case nil: queue.async { self.flush() }
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
            let started = DispatchTime.now().uptimeNanoseconds
            state.withLock { $0.inFlightSince = batch.first?.enqueuedAt }
            do {
                try file.appendAndSync(bytes)
            } catch {
                switch error {
                case .notWritten(let reason):
                    fail(batch, StoreError.writeFailed(reason.description, retrying: true), retryIn: retryInterval)
                case .unknownState(let reason):
                    fail(batch, StoreError.writeFailed(reason.description))
                }
                return
            }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
            let shouldCompact = state.withLock { state in
                state.inFlightSince = nil
                for pending in batch { state.model.apply(pending.record) }
                state.statistics.commits += batch.count
                state.statistics.syncs += 1
                state.statistics.journalBytesWritten += bytes.count
                state.statistics.syncSeconds += seconds
                return file.size > max(compactionThreshold, state.compactionRetrySize ?? 0)
            }
            for observer in commitObservers.withLock({ $0 }) { observer(seconds) }
            let handlers = subscribers.withLock { $0 }
            for pending in batch {
                let change = pending.record
                for handler in handlers { handler(change) }
                pending.complete(.success(change))
            }
            if shouldCompact { compactOnQueue() }
        }
    }

    /// How long a store whose journal write failed cleanly (nothing half-written kept) waits before it tries again.
    static let writeRetryInterval = 2.0

    /// Tries the journal again now, as the retry timer would (for tests that must not wait on a wall-clock timer).
    func retryWritingNow() {
        queue.async { self.retryWriting(every: self.retryInterval) }
    }

    /// Fails `batch` and everything pending with `error`, and refuses further changes: for good, or, with `retryIn`,
    /// until a later check finds the journal writable again (the disk had no space, and the failed write left nothing
    /// in the journal).
    private func fail(_ batch: [Pending], _ error: StoreError, retryIn: Double? = nil) {
        let firstFailure = state.withLock { $0.failure == nil }
        if firstFailure {
            logger.error(
                retryIn == nil
                    ? "store write failed; refusing further changes until the server is restarted"
                    : "store write failed; refusing changes until the journal can be written again",
                metadata: ["error": "\(error)"])
        }
        if let retryIn {
            queue.asyncAfter(deadline: .now() + retryIn) { self.retryWriting(every: retryIn) }
        }
        let rest = state.withLock { state in
            state.failure = error
            state.failureIsRetryable = retryIn != nil
            state.inFlightSince = nil
            state.flushing = false
            // Every change not yet durable is refused with this batch: their numbers are free again, so the
            // sequence has no gap once changes are taken again.
            state.nextSeq = state.model.lastSeq + 1
            defer { state.pending = [] }
            return state.pending
        }
        for pending in batch + rest { pending.complete(.failure(error)) }
    }

    /// After a clean write failure: tries one empty sync of the journal; if it works, changes are accepted again (the
    /// next one that still finds no space fails the same way), otherwise it tries again later.
    private func retryWriting(every interval: Double) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard state.withLock({ $0.failure != nil && $0.failureIsRetryable }) else { return }
        do {
            try file.appendAndSync([])
            state.withLock { state in
                state.failure = nil
                state.failureIsRetryable = false
            }
            logger.notice("store accepts changes again")
        } catch {
            if case .unknownState(let reason) = error {
                state.withLock { state in
                    state.failure = StoreError.writeFailed(reason.description)
                    state.failureIsRetryable = false
                }
                logger.error("store cannot write its journal any more; refusing changes until the server is restarted")
                return
            }
            queue.asyncAfter(deadline: .now() + interval) { self.retryWriting(every: interval) }
        }
    }

    /// Compacts the journal into the snapshot. A compaction that could not start leaves the journal as it was (every
    /// record kept) and is tried again only once the journal has grown by another threshold, with one log line per
    /// failing streak; one that replaced the journal but could not make that durable stops the store.
    private func compactOnQueue() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard let model = state.withLock({ $0.failure == nil ? $0.model : nil }) else { return }
        do {
            try file.compact(model, epoch: epochValue)
            let recovered = state.withLock { state in
                state.statistics.compactions += 1
                defer { state.compactionRetrySize = nil }
                return state.compactionRetrySize != nil
            }
            if recovered { logger.notice("store compaction works again") }
            logger.debug("store compacted", metadata: ["lastSeq": "\(model.lastSeq)"])
        } catch {
            switch error {
            case .notCompacted(let reason):
                let (first, retry) = state.withLock { state in
                    let first = state.compactionRetrySize == nil
                    state.statistics.failedCompactions += 1
                    state.compactionRetrySize = file.size + compactionThreshold
                    return (first, state.compactionRetrySize!)
                }
                if first {
                    logger.error(
                        "store compaction failed; the journal keeps every record and grows until a retry succeeds",
                        metadata: ["error": "\(reason)", "retryAtBytes": "\(retry)"])
                }
            case .folderNotSynced(let reason):
                fail([], StoreError.writeFailed("the store's folder could not be synced after a compaction: \(reason)"))
            }
        }
    }

    /// Compacts now: writes the snapshot and starts an empty journal. Not to be called from a subscriber or a
    /// completion (they run on the store's queue).
    public func compact() {
        dispatchPrecondition(condition: .notOnQueue(queue))
        queue.sync { compactOnQueue() }
    }

    /// Waits for pending changes to be written, then closes the journal; later changes fail with `.closed`.
    public func close() {
        dispatchPrecondition(condition: .notOnQueue(queue))
        queue.sync {
            state.withLock { state in
                if state.failure == nil || state.failureIsRetryable { state.failure = .closed }
                state.failureIsRetryable = false
            }
            file.close()
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
        let now = monotonicSeconds()
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
