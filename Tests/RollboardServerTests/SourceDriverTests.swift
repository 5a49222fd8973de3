import Foundation
import Logging
import RollboardTestSupport
import Synchronization
import Testing

@testable import RollboardAnimation
@testable import RollboardCore
@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardMetrics
@testable import RollboardRedisLog
@testable import RollboardAccess
@testable import RollboardHub
@testable import RollboardSources
@testable import RollboardAPI
@testable import RollboardServer

/// The source driver on a manual clock with scripted fetches and a real journal: what reaches the store, when it
/// fetches, and what it reports.
@Suite("SourceDriver")
final class SourceDriverTests {
    /// The journal each test's driver commits to, in a folder of its own.
    let folder = TemporaryDirectory()
    let store: MetricStore

    init() throws {
        store = try MetricStore(directory: folder.path, logger: Logger(label: "test"))
    }

    deinit {
        store.close()
        folder.remove()
    }

    /// Fetch results handed out in order, and how many fetches were made.
    final class ScriptedFetches: Sendable {
        private let state: Mutex<(results: [Result<SourceValues, SourceFailure>], count: Int)>

        init(_ results: [Result<SourceValues, SourceFailure>]) {
            state = Mutex((results, 0))
        }

        var count: Int { state.withLock { $0.count } }

        func next() -> Result<SourceValues, SourceFailure> {
            state.withLock { state in
                state.count += 1
                return state.results.isEmpty ? .failure(.emptyResult) : state.results.removeFirst()
            }
        }
    }

    static let source = SourceConfiguration(
        id: "stats", kind: .json, url: "http://127.0.0.1:1/", method: "GET", headers: [], body: nil, every: 10,
        timeout: 5, maxBytes: 1 << 20, caFile: nil,
        metrics: [.init(metric: "visitors", pointer: "/v", query: nil)], file: "config/sources/stats.yaml")

    static let catalog: MetricCatalog = {
        let yaml = "id: ops\ntitle: Ops\ntiles:\n  - {id: visitors, type: odometer, decimals: 0}\n"
        let configuration = try! RollboardConfiguration.parse(
            serverYAML: nil, dashboards: [("config/dashboards/ops.yaml", yaml)])
        return configuration.catalog
    }()

    @Test("fetches at start and each period on the injected clock, commits changed values only, reports health once")
    func schedule() async throws {
        let clock = ManualClock(at: 100)
        let fetches = ScriptedFetches([
            .success(["visitors": 5]), .success(["visitors": 5]), .failure(.status(503)), .success(["visitors": 7]),
        ])
        let health = Mutex<[SourceHealth]>([])
        let driver = SourceDriver(
            Self.source,
            environment: SourceDriver.Environment(
                changeLog: store, clock: clock.clock, wallClock: { 1_700_000_000 }, catalog: { Self.catalog },
                fetch: { _ in fetches.next() },
                onHealth: { _, turned in
                    health.withLock { $0.append(turned) }
                    clock.changes.changed()
                },
                logger: Logger(label: "test")))
        driver.start()
        #expect(await clock.wait { store.current("visitors")?.value == 5 && clock.armed == [110] })
        #expect(health.withLock { $0 } == [.up])
        #expect(driver.status.nextFetch == 1_700_000_010)

        clock.advance(to: 110)
        #expect(await clock.wait { fetches.count == 2 && clock.armed == [120] })
        #expect(store.history("visitors").count == 1, "the same value is not committed again")

        clock.advance(to: 120)
        #expect(await clock.wait { health.withLock { $0 } == [.up, .down("upstream answered HTTP 503")] })
        #expect(await clock.wait { clock.armed == [121] }, "retried after 1 s")
        #expect(store.current("visitors")?.value == 5, "the last value stays")
        #expect(driver.status.lastError?.reason == "upstream answered HTTP 503")

        clock.advance(to: 121)
        #expect(await clock.wait { store.current("visitors")?.value == 7 })
        #expect(await clock.wait { health.withLock { $0 } == [.up, .down("upstream answered HTTP 503"), .up] })
        #expect(driver.status.fetches == 4)
        driver.stop()
    }

    @Test("a value the tile cannot show is refused like a bad post: nothing stored, the source down with the reason")
    func refusedValue() async throws {
        let clock = ManualClock(at: 0)
        let driver = SourceDriver(
            Self.source,
            environment: SourceDriver.Environment(
                changeLog: store, clock: clock.clock, wallClock: { 0 }, catalog: { Self.catalog },
                fetch: { _ in .success(["visitors": 1e300]) }, onHealth: { _, _ in clock.changes.changed() },
                logger: Logger(label: "test")))
        driver.start()
        #expect(await clock.wait { driver.status.health.name == "down" })
        #expect(driver.status.health.reason?.hasPrefix("refused: visitors: ") == true, "\(driver.status.health)")
        #expect(store.current("visitors") == nil)
        driver.stop()
    }

    @Test("a leaderboard's board is committed whole after the metrics, again only when it changed; past the limit refused")
    func leaderboard() async throws {
        let yaml = """
            id: ops
            title: Ops
            tiles:
              - {id: visitors, type: odometer, decimals: 0}
              - {id: top, type: leaderboard}
            """
        let catalog = try RollboardConfiguration.parse(serverYAML: nil, dashboards: [("config/dashboards/ops.yaml", yaml)])
            .catalog
        var source = Self.source
        source.leaderboards = [.init(leaderboard: "top", query: "SELECT name, score FROM t")]
        let first: [LeaderboardEntry] = [.init(name: "ada", value: 3), .init(name: "bob", value: 1)]
        let second: [LeaderboardEntry] = [.init(name: "bob", value: 4), .init(name: "ada", value: 3)]
        let fetches = ScriptedFetches([
            .success(SourceValues(metrics: ["visitors": 5], leaderboards: ["top": first])),
            .success(SourceValues(metrics: ["visitors": 5], leaderboards: ["top": first])),
            .success(SourceValues(metrics: ["visitors": 5], leaderboards: ["top": second])),
            .success(SourceValues(metrics: ["visitors": 5], leaderboards: ["top": second + [.init(name: "cy", value: 1)]])),
        ])
        let clock = ManualClock(at: 0)
        let driver = SourceDriver(
            source,
            environment: SourceDriver.Environment(
                changeLog: store, clock: clock.clock, wallClock: { 0 }, catalog: { catalog },
                fetch: { _ in fetches.next() }, onHealth: { _, _ in clock.changes.changed() },
                logger: Logger(label: "test"), leaderboardLimit: { 2 }))
        driver.start()
        #expect(await clock.wait { store.leaderboard("top")?.entries == first && clock.armed == [10] })
        #expect(store.current("visitors")?.value == 5)
        let committed = try #require(store.leaderboard("top")?.seq)

        clock.advance(to: 10)
        #expect(await clock.wait { fetches.count == 2 && clock.armed == [20] })
        #expect(store.leaderboard("top")?.seq == committed, "the same board is not committed again")

        clock.advance(to: 20)
        #expect(await clock.wait { store.leaderboard("top")?.entries == second && clock.armed == [30] })

        clock.advance(to: 30)
        #expect(await clock.wait { driver.status.health.name == "down" })
        #expect(driver.status.health.reason?.hasPrefix("refused: top: entries 3 entries are more than the 2") == true,
                "\(driver.status.health)")
        #expect(store.leaderboard("top")?.entries == second, "the board keeps its last entries")
        driver.stop()
    }

    @Test("a source removed from the configuration while down clears its tiles' mark; one polled elsewhere does not")
    func removalClearsHealth() async throws {
        let health = Mutex<[SourceHealth]>([])
        let reported = Changes()
        let scheduler = SourceScheduler(
            environment: SourceDriver.Environment(
                changeLog: store, clock: ManualClock(at: 0).clock, wallClock: { 0 }, catalog: { Self.catalog },
                fetch: { _ in .failure(.invalidJSON) },
                onHealth: { _, turned in
                    health.withLock { $0.append(turned) }
                    reported.changed()
                },
                logger: Logger(label: "test")),
            leased: true)
        scheduler.apply([Self.source])
        #expect(scheduler.statuses.map(\.polledHere) == [false], "under a lease, nothing is polled before it is held")
        scheduler.setPolled("stats", true)
        #expect(await reported.wait { health.withLock { $0 } == [.down("answer is not JSON")] })
        scheduler.setPolled("stats", false)
        #expect(scheduler.statuses.map(\.polledHere) == [false])
        scheduler.setPolled("stats", true)
        // Lost and held again: no clearing between the two reports (the node that polls next says how it is).
        #expect(await reported.wait { health.withLock { $0 }.count >= 2 })
        #expect(health.withLock { $0 } == [.down("answer is not JSON"), .down("answer is not JSON")])
        scheduler.apply([])
        #expect(await reported.wait { health.withLock { $0 }.last == .unknown })
    }
}
