public import RollboardConfig
public import RollboardCore
public import RollboardMetrics
package import RollboardRedisLog
public import RollboardStore

/// One source's schedule as a pure state machine: inputs carry `now` (monotonic seconds) and return the actions its
/// driver carries out (``SourceAction``); ``SourceDriver`` owns the queue, the timer and the fetches.
///
/// A fetch starts at `start` and then every `every` seconds, measured from when the previous one started. A failed
/// fetch keeps the last values and is retried sooner, after 1 s, 2 s, 4 s… but never later than `every` (so a
/// recovered upstream is seen within one period). Only values that differ from the last ones committed are committed;
/// the health is reported once per change (a new reason is a change).
public struct SourcePoller: Sendable, Equatable {
    /// The first retry after a failure, in seconds; each further failure doubles it, up to the period.
    public static let firstRetry = 1.0

    enum Phase: Sendable, Equatable {
        case idle
        /// Waiting for the next fetch, due at this instant.
        case waiting(until: Double)
        /// A fetch started at this instant is under way.
        case fetching(since: Double)
        /// Committed values wait for the change log's answer; the fetch had started at this instant.
        case committing(since: Double, values: SourceValues)
        case stopped
    }

    public private(set) var every: Double
    private(set) var phase: Phase = .idle
    public private(set) var health: SourceHealth = .unknown
    /// Failures in a row since the last success.
    public private(set) var failures = 0
    /// The last value committed (or found in the store at start) for each metric, and each leaderboard's board.
    public private(set) var committed: SourceValues = SourceValues()

    public init(every: Double) {
        self.every = every
    }

    /// The instant of the next fetch while waiting for it.
    public var nextFetch: Double? {
        if case .waiting(let until) = phase { until } else { nil }
    }

    /// Starts polling: the first fetch is now. `current` holds the values the store has, so that an unchanged value
    /// is not posted again after a restart or a takeover.
    public mutating func start(now: Double, current: SourceValues) -> [SourceAction] {
        guard phase == .idle else { return [] }
        committed = current
        phase = .fetching(since: now)
        return [.fetch]
    }

    public mutating func timerFired(now: Double) -> [SourceAction] {
        guard case .waiting(let until) = phase, now >= until else { return [] }
        phase = .fetching(since: now)
        return [.fetch]
    }

    /// A fetch's outcome: the values of every metric and leaderboard, or why there are none.
    public mutating func fetched(_ result: Result<SourceValues, SourceFailure>, now: Double) -> [SourceAction] {
        guard case .fetching(let since) = phase else { return [] }
        switch result {
        case .failure(let failure):
            return failed(failure, now: now)
        case .success(let values):
            let changed = values.changed(since: committed)
            if changed.isEmpty { return succeeded(since: since, now: now) }
            phase = .committing(since: since, values: changed)
            return [.commit(changed)]
        }
    }

    /// The change log took the values of the last `commit`.
    public mutating func committed(now: Double) -> [SourceAction] {
        guard case .committing(let since, let values) = phase else { return [] }
        committed = committed.merging(values)
        return succeeded(since: since, now: now)
    }

    /// The change log refused the values of the last `commit` (or the tile cannot show one of them).
    public mutating func commitFailed(_ failure: SourceFailure, now: Double) -> [SourceAction] {
        guard case .committing = phase else { return [] }
        return failed(failure, now: now)
    }

    /// The configuration changed the period: the next fetch is one new period after the last one started, or now.
    public mutating func reload(every: Double, now: Double) -> [SourceAction] {
        let previous = self.every
        self.every = every
        guard case .waiting(let until) = phase, failures == 0 else { return [] }
        let due = max(now, until - previous + every)
        phase = .waiting(until: due)
        return [.wake(at: due)]
    }

    public mutating func stop() -> [SourceAction] {
        phase = .stopped
        return []
    }

    private mutating func succeeded(since: Double, now: Double) -> [SourceAction] {
        failures = 0
        let due = max(now, since + every)
        phase = .waiting(until: due)
        var actions: [SourceAction] = []
        if health != .up {
            health = .up
            actions.append(.health(.up))
        }
        actions.append(.wake(at: due))
        return actions
    }

    private mutating func failed(_ failure: SourceFailure, now: Double) -> [SourceAction] {
        failures += 1
        let retry = min(every, Self.firstRetry * Double(1 << min(failures - 1, 20)))
        let due = now + retry
        phase = .waiting(until: due)
        var actions: [SourceAction] = []
        let down = SourceHealth.down(failure.description)
        if health != down {
            health = down
            actions.append(.health(down))
        }
        actions.append(.wake(at: due))
        return actions
    }
}
