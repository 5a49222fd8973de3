public import Logging
public import RollboardConfig
public import RollboardCore
public import RollboardMetrics
public import RollboardStore
import Synchronization

/// Every source of a node: one ``SourceDriver`` each for the sources this node polls, started with the configuration
/// and changed by a reload (a source added starts, one removed stops, one changed starts again, one whose period alone
/// changed keeps its schedule). Without Redis the node polls every source; with Redis, the ones whose lease it holds
/// (``SourceLeases``). The admin API and `/metrics` read its statuses.
public final class SourceScheduler: Sendable {
    private struct State {
        var sources: [SourceConfiguration] = []
        var drivers: [String: (configuration: SourceConfiguration, driver: SourceDriver)] = [:]
        /// The sources this node holds the lease of; `nil`: no leases, every source is polled here.
        var held: Set<String>?
        /// The health each source's poller last shared through the change log (for the sources polled elsewhere).
        var shared: [String: SourceHealth] = [:]
    }

    private let environment: SourceDriver.Environment
    private let state: Mutex<State>

    /// - Parameter leased: whether sources are polled only under a lease (`setPolled(_:_:)` says which).
    init(environment: SourceDriver.Environment, leased: Bool = false) {
        self.environment = environment
        state = Mutex(State(held: leased ? [] : nil))
    }

    /// A scheduler on the node's clock that fetches with `fetch` (for real outside tests).
    package convenience init(
        changeLog: any ChangeLog, clock: NodeClock,
        fetch: @escaping @Sendable (SourceConfiguration) -> Result<SourceValues, SourceFailure>,
        catalog: @escaping @Sendable () -> MetricCatalog, leaderboardLimit: @escaping @Sendable () -> Int,
        leased: Bool, onHealth: @escaping @Sendable (SourceConfiguration, SourceHealth) -> Void, logger: Logger
    ) {
        self.init(
            environment: SourceDriver.Environment(
                changeLog: changeLog, clock: clock.monotonic, wallClock: clock.wall.now, catalog: catalog,
                fetch: fetch, onHealth: onHealth, logger: logger, leaderboardLimit: leaderboardLimit),
            leased: leased)
    }

    /// Puts `sources` in force.
    public func apply(_ sources: [SourceConfiguration]) {
        state.withLock { state in
            state.sources = sources
            reconcile(&state)
        }
    }

    /// Whether this node polls `source` (it holds, or lost, its lease).
    package func setPolled(_ source: String, _ polled: Bool) {
        state.withLock { state in
            if polled { state.held?.insert(source) } else { state.held?.remove(source) }
            reconcile(&state)
        }
    }

    /// Starts, reloads and stops drivers so that exactly the sources polled here run, each with its configuration.
    private func reconcile(_ state: inout State) {
        var next: [String: (configuration: SourceConfiguration, driver: SourceDriver)] = [:]
        for source in state.sources where state.held?.contains(source.id) ?? true {
            if let old = state.drivers.removeValue(forKey: source.id) {
                var sameButPeriod = old.configuration
                sameButPeriod.every = source.every
                if sameButPeriod == source {
                    if old.configuration.every != source.every { old.driver.reload(every: source.every) }
                    next[source.id] = (source, old.driver)
                    continue
                }
                old.driver.stop()
            }
            let driver = SourceDriver(source, environment: environment)
            driver.start()
            next[source.id] = (source, driver)
        }
        let configured = Set(state.sources.map(\.id))
        for (id, removed) in state.drivers { removed.driver.stop(clearingHealth: !configured.contains(id)) }
        state.drivers = next
    }

    /// A source's health as its poller (on any node) committed it.
    package func noteShared(_ health: StoredSourceHealth) {
        state.withLock { $0.shared[health.id] = health.reason.map(SourceHealth.down) ?? .up }
    }

    /// Each source's status, in configuration order; a source another node polls has the health that node shared,
    /// and nothing else.
    public var statuses: [SourceStatus] {
        let (sources, drivers, shared) = state.withLock { ($0.sources, $0.drivers, $0.shared) }
        return sources.map { source in
            drivers[source.id]?.driver.status
                ?? SourceStatus(
                    id: source.id, kind: source.kind, every: source.every, health: shared[source.id] ?? .unknown,
                    lastSuccess: nil,
                    lastError: nil, nextFetch: nil, polledHere: false, fetches: 0,
                    durationCounts: [Int](repeating: 0, count: SourceStatistics.durationBuckets.count), durationSum: 0)
        }
    }

    /// Stops every source (the node is shutting down).
    public func stopAll() {
        apply([])
    }
}
