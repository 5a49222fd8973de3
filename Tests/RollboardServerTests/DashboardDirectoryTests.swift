import Dispatch
import Foundation
import Logging
import RollboardClient
import RollboardNet
import RollboardTestSupport
import Testing

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

@Suite("Dashboard directory")
struct DashboardDirectoryTests {
    private static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    private struct Fixture {
        let directory: DashboardDirectory
        let store: MetricStore
        let folder: String

        /// The hello a new screen of the demo dashboard gets.
        func hello() async throws -> String {
            let sink = RecordingSink()
            _ = try #require(directory.hub("demo")).connect(sink, fps: nil)
            #expect(await sink.wait { !sink.messages.isEmpty })
            return try #require(sink.messages.first)
        }
    }

    private func makeFixture(seed: [MetricUpdate] = []) throws -> Fixture {
        let configuration = try RollboardConfiguration.load(directory: Self.repositoryRoot + "/config")
        let folder = NSTemporaryDirectory() + "rollboard-directory-\(UUID().uuidString)"
        let logger = Logger(label: "test")
        let store = try MetricStore(directory: folder, logger: logger)
        if !seed.isEmpty {
            let done = DispatchSemaphore(value: 0)
            store.append(seed) { _ in done.signal() }
            done.wait()
        }
        let directory = try DashboardDirectory(
            configuration: configuration, store: store, metrics: ServerMetrics(), logger: logger)
        return Fixture(directory: directory, store: store, folder: folder)
    }

    @Test(
        "an announcement a node applies late shows for what is left of its seconds on the directory's wall clock",
        arguments: [(0.0, "20"), (15.0, "5"), (19.5, "0.5"), (20.0, nil), (45.0, nil)])
    func announcementSecondsLeft(appliedAfter seconds: Double, shown: String?) async throws {
        let configuration = try RollboardConfiguration.load(directory: Self.repositoryRoot + "/config")
        let folder = NSTemporaryDirectory() + "rollboard-directory-\(UUID().uuidString)"
        let committedAt = 1_700_000_000.0
        let wall = ManualClock(at: committedAt + seconds)
        let store = try MetricStore(directory: folder, logger: Logger(label: "test"), clock: { committedAt })
        defer { store.close(); try? FileManager.default.removeItem(atPath: folder) }
        let directory = try DashboardDirectory(
            configuration: configuration, store: store, metrics: ServerMetrics(), logger: Logger(label: "test"),
            clock: .monotonic(), wall: wall.clock)
        let sink = RecordingSink()
        _ = try #require(directory.hub("demo")).connect(sink, fps: nil)
        #expect(await sink.wait { !sink.messages.isEmpty })
        let done = DispatchSemaphore(value: 0)
        store.commandScreens(.announceEverywhere(text: "Fire drill", seconds: 20)) { _ in done.signal() }
        done.wait()
        let expected = shown.map { #"{"type":"announce","text":"Fire drill","seconds":\#($0)}"# }
        if let expected {
            #expect(await sink.wait { sink.messages.contains(expected) }, "\(sink.messages.dropFirst())")
        } else {
            // A reload committed after it arrives after it: by then a spent announcement would have shown.
            store.commandScreens(.reloadDashboard("demo")) { _ in }
            #expect(await sink.wait { sink.messages.contains { $0.contains(#""type":"reload""#) } })
            #expect(!sink.messages.contains { $0.contains("announce") }, "a spent announcement is not shown")
        }
    }

    @Test("a new screen's hello shows the stored values and every tile of the demo dashboard")
    func helloShowsStoredValues() async throws {
        let fixture = try makeFixture(seed: [MetricUpdate(id: "revenue", value: 1234.5)])
        defer { fixture.store.close(); try? FileManager.default.removeItem(atPath: fixture.folder) }
        let hello = try await fixture.hello()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(hello.utf8)) as? [String: Any])
        let states = try #require(object["tiles"] as? [String: Any])
        #expect(states["visitors"] is NSNull && states["orders"] is NSNull, "metrics with no value have a null state")
        let tiles = states.compactMapValues { $0 as? [String: Any] }
        #expect(tiles["revenue"]?["d"] as? [Int] == [1000, 2000, 3000, 4000, 5000, 0])
        #expect(tiles["revenue"]?["target"] as? Double == 1234.5)
        let committed = try #require(fixture.store.current("revenue")?.updatedAt)
        #expect(tiles["revenue"]?["updatedAt"] as? Double == (committed * 1000).rounded() / 1000)
        #expect(tiles["visitors"]?["updatedAt"] == nil)
        #expect(Set(states.keys) == ["revenue", "visitors", "orders", "conversion", "temperature", "status", "news", "notice"])
        let layout = try #require(object["dashboard"] as? [String: Any])
        #expect(layout["id"] as? String == "demo")
        #expect((layout["tiles"] as? [[String: Any]])?.count == 8)
    }

    @Test("a committed value rolls every screen's odometer to exactly the new digits")
    func committedValueReachesScreens() async throws {
        let fixture = try makeFixture()
        defer { fixture.store.close(); try? FileManager.default.removeItem(atPath: fixture.folder) }
        let hub = try #require(fixture.directory.hub("demo"))
        let sink = RecordingSink()
        _ = hub.connect(sink, fps: 60)
        fixture.store.append([MetricUpdate(id: "visitors", value: 42, interval: 0.3)]) { _ in }
        let arrived = await sink.wait {
            let visitors = Self.visitors(after: sink.texts) as? [String: Any]
            return visitors?["digits"] as? [Double] == [0, 0, 0, 4, 2] && visitors?["target"] as? Double == 42
        }
        #expect(arrived, "\(sink.texts.suffix(2))")
        #expect(sink.texts.count > 3)
    }

    /// The visitors tile's state after the hello and frames, as a screen patches it.
    private static func visitors(after messages: [String]) -> Any {
        var state: Any = NSNull()
        for text in messages {
            guard let message = try? jsonObject(Array(text.utf8)) else { continue }
            if let tiles = message["tiles"] as? [String: Any], let full = tiles["visitors"] {
                state = Screen.patch(nil, with: full)
            } else if let entry = (message["t"] as? [String: Any])?["visitors"] {
                state = Screen.patch(state, with: entry)
            }
        }
        return Screen.longForm(state)
    }

    @Test("an unknown dashboard has no hub")
    func unknownDashboard() throws {
        let fixture = try makeFixture()
        defer { fixture.store.close(); try? FileManager.default.removeItem(atPath: fixture.folder) }
        #expect(fixture.directory.hub("nope") == nil)
    }

    /// A value stored under an earlier configuration (visitors once had more columns; conversion is a `%.2f`
    /// counter) must not stop the server from starting: the tiles start at zero and take the next value.
    @Test("stored values the tiles can no longer show start those tiles at zero instead of failing the start")
    func unshowableStoredValuesDoNotStopTheStart() async throws {
        let fixture = try makeFixture(seed: [
            MetricUpdate(id: "visitors", value: 1_000_000), MetricUpdate(id: "conversion", value: 1e14),
            MetricUpdate(id: "revenue", value: 12),
        ])
        defer { fixture.store.close(); try? FileManager.default.removeItem(atPath: fixture.folder) }
        let hello = try await fixture.hello()
        #expect(hello.contains(#""visitors":{"d":[0,0,0,0,0],"negative":false,"target":0,"#), "\(hello)")
        #expect(hello.contains(#""revenue":{"d":[1000,2000,0,0]"#), "\(hello)")
    }

    @Test(
        "a dashboard a reload adds while Redis is down tells its screens the feed is stale, and live once it is back",
        .enabled(if: RedisServerProcess.shouldRun))
    func dashboardAddedDuringAnOutageStartsStale() async throws {
        let demo = try String(contentsOfFile: Self.repositoryRoot + "/config/dashboards/demo.yaml", encoding: .utf8)
        let lobby = """
            id: lobby
            title: Lobby
            grid: { columns: 1, rows: 1 }
            tiles:
              - id: visitors
                type: odometer
                title: Visitors online
                position: { column: 1, row: 1 }
                columns: 5
            """
        let before = try RollboardConfiguration.parse(serverYAML: nil, dashboards: [("demo.yaml", demo)])
        let after = try RollboardConfiguration.parse(
            serverYAML: nil, dashboards: [("demo.yaml", demo), ("lobby.yaml", lobby)])
        let redis = try RedisServerProcess.forChangeLog()
        var logger = Logger(label: "test.redis")
        logger.logLevel = .critical
        let log = try RedisChangeLog.opened(settings: RedisSettings(url: redis.url), logger: logger)
        defer { log.close() }
        let directory = try DashboardDirectory(
            configuration: before, store: log, metrics: ServerMetrics(), logger: logger)

        let feedTurns = Changes()
        log.observeFeed { _ in feedTurns.changed() }
        redis.kill()
        #expect(await feedTurns.wait { !log.isFeedLive })
        let report = try directory.reconfigure(after)
        #expect(report.added == ["lobby"])
        let sink = RecordingSink()
        _ = try #require(directory.hub("lobby")).connect(sink, fps: nil)
        let stale = #"{"type":"status","feed":"stale"}"#
        let live = #"{"type":"status","feed":"live"}"#
        #expect(await sink.wait { sink.texts.contains(stale) }, "\(sink.texts)")

        try redis.start()
        #expect(await sink.wait(within: 15) { sink.texts.contains(live) }, "\(sink.texts)")
        let feed = sink.texts.filter { $0 == stale || $0 == live }
        #expect(feed == [stale, live])
    }

    @Test("a playlist an operator held before a restart is still held, on the same entry, after it")
    func heldPlaylistSurvivesARestart() async throws {
        let demo = try String(contentsOfFile: Self.repositoryRoot + "/config/dashboards/demo.yaml", encoding: .utf8)
        let lobby = "id: lobby\ntitle: Lobby\ntiles:\n  - {id: visitors, type: odometer, columns: 5}\n"
        let wall = """
            id: wall
            title: Wall
            entries:
              - {dashboard: demo, seconds: 600}
              - {dashboard: lobby, seconds: 600}
            """
        let configuration = try RollboardConfiguration.parse(
            serverYAML: nil, dashboards: [("demo.yaml", demo), ("lobby.yaml", lobby)], playlists: [("wall.yaml", wall)])
        let folder = NSTemporaryDirectory() + "rollboard-directory-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let logger = Logger(label: "test")

        func status(_ directory: DashboardDirectory) async throws -> (entry: Int, held: Bool) {
            let playlist = try #require(directory.playlist("wall"))
            return await withCheckedContinuation { continuation in
                playlist.status { entry, held, _ in continuation.resume(returning: (entry, held)) }
            }
        }
        /// Commits `action` and waits until `directory`'s playlist has applied it.
        func command(_ store: MetricStore, _ directory: DashboardDirectory, _ action: StoredPlaylistCommand.Action)
            async throws -> Bool
        {
            let command = try await withCheckedContinuation { continuation in
                store.commandPlaylist("wall", action: action) { continuation.resume(returning: $0) }
            }.get()
            let playlist = try #require(directory.playlist("wall"))
            return await withCheckedContinuation { continuation in
                playlist.whenApplied(command.seq, timeout: 5) { continuation.resume(returning: $0) }
            }
        }

        let store = try MetricStore(directory: folder, logger: logger)
        let directory = try DashboardDirectory(
            configuration: configuration, store: store, metrics: ServerMetrics(), logger: logger)
        let shown = try await status(directory).entry == 0 ? 1 : 0
        #expect(try await command(store, directory, .show(entry: shown)))
        #expect(try await command(store, directory, .hold))
        let before = try await status(directory)
        #expect(before.entry == shown && before.held, "before the restart: \(before)")
        store.close()

        let reopened = try MetricStore(directory: folder, logger: logger)
        defer { reopened.close() }
        let restarted = try DashboardDirectory(
            configuration: configuration, store: reopened, metrics: ServerMetrics(), logger: logger)
        let after = try await status(restarted)
        #expect(after.entry == shown && after.held, "after the restart: \(after)")
    }
}
