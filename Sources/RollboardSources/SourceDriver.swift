import Dispatch
import Logging
package import RollboardConfig
package import RollboardCore
package import RollboardMetrics
package import RollboardRedisLog
package import RollboardStore
import RollboardAnimation
import Synchronization

/// The live side of one source: drives a ``SourcePoller`` on its own serial queue with one timer on an injected
/// monotonic clock, fetches on a second queue of its own (a fetch blocks a thread for up to its timeout; never a
/// hub's or a connection's), commits changed values through the change log like a post, and reports its health.
final class SourceDriver: @unchecked Sendable {  // Sendable: every var is touched only on `queue`; status in a Mutex.
    /// What a driver works with, shared by every source of a node.
    struct Environment: Sendable {
        let changeLog: any ChangeLog
        /// The monotonic clock the schedule runs by.
        let clock: FrameClock
        /// Seconds since 1970, for the times the admin API shows.
        let wallClock: @Sendable () -> Double
        /// The catalog in force: whether a tile can show a value.
        let catalog: @Sendable () -> MetricCatalog
        /// One fetch, blocking (``SourceFetch/perform(_:environment:)`` outside tests).
        let fetch: @Sendable (SourceConfiguration) -> Result<SourceValues, SourceFailure>
        /// Told each time a source's health turns (after it is logged).
        let onHealth: @Sendable (SourceConfiguration, SourceHealth) -> Void
        let logger: Logger
        /// The most entries a leaderboard holds (`limits.maxLeaderboardEntries` in force).
        var leaderboardLimit: @Sendable () -> Int = { ServerSettings.Limits.Defaults.maxLeaderboardEntries }
    }

    private var configuration: SourceConfiguration
    private let environment: Environment
    private let queue: DispatchQueue
    private let fetchQueue: DispatchQueue
    private let timer: any ClockTimer
    private let statusState: Mutex<SourceStatus>
    /// When the fetch under way started, on the monotonic clock.
    private var fetchStarted = 0.0
    // Confined to `queue`.
    private var poller: SourcePoller

    init(_ configuration: SourceConfiguration, environment: Environment) {
        self.configuration = configuration
        self.environment = environment
        queue = DispatchQueue(label: "rollboard.source.\(configuration.id)")
        fetchQueue = DispatchQueue(label: "rollboard.source.\(configuration.id).fetch")
        timer = environment.clock.makeTimer(queue)
        poller = SourcePoller(every: configuration.every)
        statusState = Mutex(
            SourceStatus(
                id: configuration.id, kind: configuration.kind, every: configuration.every, health: .unknown,
                lastSuccess: nil, lastError: nil, nextFetch: nil, polledHere: true, fetches: 0,
                durationCounts: [Int](repeating: 0, count: SourceStatistics.durationBuckets.count), durationSum: 0))
        timer.activate { [weak self] in self?.timerFired() }
    }

    var status: SourceStatus { statusState.withLock { $0 } }

    /// Starts polling; `current` holds the store's values of the source's metrics.
    func start() {
        queue.async { [self] in
            let store = environment.changeLog.snapshot
            var current = SourceValues()
            for id in configuration.metricIDs {
                if let metric = store.current(id) { current.metrics[id] = metric.value }
            }
            for id in configuration.leaderboardIDs {
                if let board = store.leaderboard(id) { current.leaderboards[id] = board.entries }
            }
            perform(poller.start(now: environment.clock.now(), current: current))
        }
    }

    /// The same source with another period (everything else unchanged).
    func reload(every: Double) {
        queue.async { [self] in
            configuration.every = every
            statusState.withLock { $0.every = every }
            perform(poller.reload(every: every, now: environment.clock.now()))
        }
    }

    /// Stops polling. `clearingHealth` (the source left the configuration): a source that was down says it no longer
    /// is, so its tiles lose their stale mark; a source merely polled elsewhere now leaves that to the new poller.
    func stop(clearingHealth: Bool = false) {
        queue.async { [self] in
            let wasDown = poller.health.reason != nil
            _ = poller.stop()
            timer.cancel()
            // After a fetch under way: the connection a postgres source keeps is closed.
            fetchQueue.async { [id = configuration.id] in SourcePostgres.release(id) }
            if clearingHealth && wasDown { environment.onHealth(configuration, .unknown) }
        }
    }

    private func timerFired() {
        dispatchPrecondition(condition: .onQueue(queue))
        perform(poller.timerFired(now: environment.clock.now()))
    }

    private func perform(_ actions: [SourceAction]) {
        dispatchPrecondition(condition: .onQueue(queue))
        for action in actions {
            switch action {
            case .fetch: fetch()
            case .commit(let values): commit(values)
            case .health(let health): report(health)
            case .wake(let time):
                timer.arm(at: time)
                let wall = environment.wallClock() + (time - environment.clock.now())
                statusState.withLock { $0.nextFetch = wall }
            }
        }
    }

    private func fetch() {
        fetchStarted = environment.clock.now()
        statusState.withLock { $0.nextFetch = nil }
        let configuration = configuration
        let fetch = environment.fetch
        fetchQueue.async { [self] in
            let result = fetch(configuration)
            queue.async { [self] in fetched(result) }
        }
    }

    private func fetched(_ result: Result<SourceValues, SourceFailure>) {
        dispatchPrecondition(condition: .onQueue(queue))
        let now = environment.clock.now()
        let seconds = now - fetchStarted
        let wall = environment.wallClock()
        statusState.withLock { status in
            status.fetches += 1
            status.durationSum += seconds
            for (index, bound) in SourceStatistics.durationBuckets.enumerated() where seconds <= bound {
                status.durationCounts[index] += 1
            }
            switch result {
            case .success: status.lastSuccess = wall
            case .failure(let failure): status.lastError = (failure.description, wall)
            }
        }
        perform(poller.fetched(result, now: now))
    }

    /// Commits the metrics of `values` as one batch, refused whole (like a bad post) when a tile cannot show one of
    /// them, then each leaderboard's whole board.
    private func commit(_ values: SourceValues) {
        let catalog = environment.catalog()
        for (id, value) in values.metrics.sorted(by: { $0.key < $1.key }) {
            if let problem = catalog.problem(showing: value, as: id) {
                return failCommit(.refused("\(id): \(problem)"))
            }
        }
        let updates = values.metrics.sorted { $0.key < $1.key }.map { MetricUpdate(id: $0.key, value: $0.value) }
        let boards = values.leaderboards.sorted { $0.key < $1.key }
        guard !updates.isEmpty else { return commitBoards(boards[...]) }
        environment.changeLog.append(updates) { [self] result in
            queue.async { [self] in
                switch result {
                case .success: commitBoards(boards[...])
                case .failure(let error): failCommit(.notCommitted("\(error)"))
                }
            }
        }
    }

    /// Commits each board in turn, replacing it whole; the poller hears of the commit once the last one is durable.
    private func commitBoards(_ boards: ArraySlice<(key: String, value: [LeaderboardEntry])>) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard let (id, entries) = boards.first else { return perform(poller.committed(now: environment.clock.now())) }
        let catalog = environment.catalog()
        let request = LeaderboardCommitRequest(
            id: id, edit: .replace(entries), limit: environment.leaderboardLimit(),
            problem: { catalog.problem(showing: $0, as: id) })
        environment.changeLog.commitLeaderboard(request) { [self] result in
            queue.async { [self] in
                switch result {
                case .success: commitBoards(boards.dropFirst())
                case .failure(.refused(let refusal)): failCommit(.refused("\(id): \(refusal.field) \(refusal.reason)"))
                case .failure(let error): failCommit(.notCommitted("\(error)"))
                }
            }
        }
    }

    private func failCommit(_ failure: SourceFailure) {
        dispatchPrecondition(condition: .onQueue(queue))
        let wall = environment.wallClock()
        statusState.withLock { $0.lastError = (failure.description, wall) }
        perform(poller.commitFailed(failure, now: environment.clock.now()))
    }

    private func report(_ health: SourceHealth) {
        statusState.withLock { $0.health = health }
        switch health {
        case .up:
            environment.logger.notice("source up", metadata: ["source": "\(configuration.id)"])
        case .down(let reason):
            environment.logger.warning(
                "source down; its tiles keep their last values, shown stale",
                metadata: ["source": "\(configuration.id)", "reason": "\(reason)"])
        case .unknown:
            break
        }
        environment.onHealth(configuration, health)
    }
}
