package import RollboardConfig

/// The journal's upkeep, without I/O or clocks: when to compact it into the snapshot, when to try again a journal
/// whose write failed cleanly (the disk was full and nothing half-written was kept), and when to give up. Each input
/// takes `now` (monotonic seconds) where time matters and returns the ``Action``s the store carries out, in order;
/// `.wake(at:)` arms the store's one timer.
struct JournalUpkeep: Equatable {
    enum Action: Equatable {
        /// Compact the journal into the snapshot now, then report ``compacted()`` or
        /// ``compactionFailed(journalSize:)``.
        case compact
        /// Try one empty write and sync of the journal, then report ``writable()``, ``stillFull(now:)`` or
        /// ``failedForGood()``.
        case tryWriting
        /// Tell the operator once per streak: compactions fail, the journal grows until it reaches `retryAtBytes`.
        case compactionFailing(retryAtBytes: Int)
        /// Tell the operator a compaction worked again after a failing streak.
        case compactionRecovered
        /// Call ``timerFired(now:)`` at this time; `nil`: never.
        case wake(at: Double?)
    }

    /// Journal size in bytes above which it is compacted.
    let threshold: Int
    /// Seconds between tries of a journal whose write failed cleanly.
    let retryInterval: Double

    /// After a failed compaction: the journal size at which the next attempt is made.
    private(set) var compactionRetrySize: Int?
    /// When the journal is next tried after a clean write failure; `nil` while none is planned.
    private(set) var retryAt: Double?
    private(set) var isClosed = false

    init(threshold: Int, retryInterval: Double) {
        self.threshold = threshold
        self.retryInterval = retryInterval
    }

    /// A write of the journal worked and left it `journalSize` bytes long: compact once it is past the threshold (or,
    /// after a failed compaction, past the size the retry waits for).
    func wrote(journalSize: Int) -> [Action] {
        journalSize > max(threshold, compactionRetrySize ?? 0) && !isClosed ? [.compact] : []
    }

    /// A compaction worked.
    mutating func compacted() -> [Action] {
        defer { compactionRetrySize = nil }
        return compactionRetrySize == nil ? [] : [.compactionRecovered]
    }

    /// A compaction could not start (the journal is as it was): try again once the journal has grown by another
    /// threshold; the operator hears of it once per failing streak.
    mutating func compactionFailed(journalSize: Int) -> [Action] {
        let first = compactionRetrySize == nil
        compactionRetrySize = journalSize + threshold
        return first ? [.compactionFailing(retryAtBytes: journalSize + threshold)] : []
    }

    /// A write failed cleanly: changes are refused (by the store) and the journal is tried again after the interval.
    mutating func writeFailedCleanly(now: Double) -> [Action] {
        guard !isClosed else { return [] }
        retryAt = now + retryInterval
        return [.wake(at: retryAt)]
    }

    /// The timer fired: the journal is tried if a try is due.
    mutating func timerFired(now: Double) -> [Action] {
        guard let due = retryAt, !isClosed else { return [] }
        guard now >= due else { return [.wake(at: due)] }
        retryAt = nil
        return [.tryWriting]
    }

    /// The try worked: changes are accepted again (by the store); nothing more is planned.
    mutating func writable() -> [Action] {
        retryAt = nil
        return []
    }

    /// The try found the disk still full: the next one after the interval.
    mutating func stillFull(now: Double) -> [Action] {
        writeFailedCleanly(now: now)
    }

    /// The journal is in a state the store cannot vouch for: nothing is tried again until a restart.
    mutating func failedForGood() -> [Action] {
        retryAt = nil
        return [.wake(at: nil)]
    }

    /// The store closes: nothing more is tried.
    mutating func close() -> [Action] {
        guard !isClosed else { return [] }
        isClosed = true
        retryAt = nil
        return [.wake(at: nil)]
    }
}
