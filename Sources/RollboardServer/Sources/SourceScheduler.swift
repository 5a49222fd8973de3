import Logging
import Synchronization

/// Every source of a node: one ``SourceDriver`` each, started with the configuration and changed by a reload (a
/// source added starts, one removed stops, one changed starts again, one whose period alone changed keeps its
/// schedule). The admin API and `/metrics` read its statuses.
public final class SourceScheduler: Sendable {
    private let environment: SourceDriver.Environment
    private let drivers = Mutex<[(configuration: SourceConfiguration, driver: SourceDriver)]>([])

    init(environment: SourceDriver.Environment) {
        self.environment = environment
    }

    /// A scheduler on the system's clocks that fetches for real.
    convenience init(
        changeLog: any ChangeLog, catalog: @escaping @Sendable () -> MetricCatalog,
        onHealth: @escaping @Sendable (SourceConfiguration, SourceHealth) -> Void, logger: Logger
    ) {
        self.init(
            environment: SourceDriver.Environment(
                changeLog: changeLog, clock: .monotonic(), wallClock: { wallClock() }, catalog: catalog,
                fetch: { SourceFetch.perform($0) }, onHealth: onHealth, logger: logger))
    }

    /// Puts `sources` in force.
    public func apply(_ sources: [SourceConfiguration]) {
        drivers.withLock { running in
            var next: [(configuration: SourceConfiguration, driver: SourceDriver)] = []
            for source in sources {
                if let index = running.firstIndex(where: { $0.configuration.id == source.id }) {
                    let old = running.remove(at: index)
                    var sameButPeriod = old.configuration
                    sameButPeriod.every = source.every
                    if sameButPeriod == source {
                        if old.configuration.every != source.every { old.driver.reload(every: source.every) }
                        next.append((source, old.driver))
                        continue
                    }
                    old.driver.stop()
                }
                let driver = SourceDriver(source, environment: environment)
                driver.start()
                next.append((source, driver))
            }
            for removed in running { removed.driver.stop() }
            running = next
        }
    }

    /// Each source's status, in configuration order.
    public var statuses: [SourceStatus] {
        drivers.withLock { $0.map(\.driver) }.map(\.status)
    }

    /// Stops every source (the node is shutting down).
    public func stopAll() {
        apply([])
    }
}
