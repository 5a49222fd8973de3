import Dispatch
import Foundation
import Logging
import RollboardTestSupport
import Synchronization
import Testing

@testable import RollboardCore
@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardMetrics
@testable import RollboardRedisLog
@testable import RollboardAccess
@testable import RollboardHub
@testable import RollboardAPI
@testable import RollboardServer

/// A windowed tile built the way a node builds it: from YAML, by the directory's factory, over a real journal whose
/// commit times the test sets, driven by manual frame and wall clocks.
@Suite("Windowed tiles in a dashboard directory")
struct WindowedDirectoryTests {
    static let yaml = """
        id: kasse
        timeZone: Europe/Berlin
        motion: reduced
        tiles:
          - {id: heute, type: counter, metric: verkauf, format: "%d", window: today, aggregate: sum, compare: yesterday}
          - {id: tag, type: counter, metric: verkauf, format: "%d", window: today, aggregate: sum}
        """

    @Test("today's sum and its arrow against this time yesterday, then — from Berlin midnight on the hub's clock")
    func todayThroughTheDirectory() async throws {
        let configuration = try RollboardConfiguration.parse(serverYAML: nil, dashboards: [("d/kasse.yaml", Self.yaml)])
        let folder = NSTemporaryDirectory() + "rollboard-windows-\(UUID().uuidString)"
        let commitTime = Mutex(0.0)
        let store = try MetricStore(directory: folder, logger: Logger(label: "test"), clock: { commitTime.withLock { $0 } })
        defer { store.close(); try? FileManager.default.removeItem(atPath: folder) }
        func increment(_ amount: Double, at time: Double) {
            commitTime.withLock { $0 = time }
            let done = DispatchSemaphore(value: 0)
            let update = MetricUpdate(id: "verkauf", value: 0, increment: amount)
            store.commitMetrics(MetricCommitRequest(metrics: [update.stored])) { _ in done.signal() }
            done.wait()
        }
        let yesterday = WindowedTileTests.march28Midnight
        increment(100, at: yesterday - 3_600)  // 27 March: the day before yesterday
        increment(10, at: yesterday + 9.5 * 3_600)  // 28 March 09:30 CET, before this time yesterday
        let tenOClock = WindowedTileTests.march29Midnight + 9 * 3_600  // 29 March 10:00 CEST
        increment(12, at: tenOClock - 60)

        let frames = ManualClock(at: 0)
        let wall = ManualClock(at: tenOClock)
        let directory = try DashboardDirectory(
            configuration: configuration, store: store, metrics: ServerMetrics(), logger: Logger(label: "test"),
            clock: frames.clock, wall: wall.clock)
        let sink = RecordingSink()
        _ = try #require(directory.hub("kasse")).connect(sink, fps: nil)
        #expect(await sink.wait { !sink.messages.isEmpty })
        let hello = sink.messages.first ?? ""
        #expect(hello.contains(
            #""heute":{"text":"12","target":12,"trend":"up","delta":2,"deltaText":"+20 %","sense":"better","versus":"this time yesterday","updatedAt":"#),
            "\(hello)")
        #expect(hello.contains(#""tag":{"text":"12","target":12,"updatedAt":"#), "\(hello)")

        // The hub's timer is armed on its injected clock: the compared number's refresh, and the midnight 14 hours on.
        let midnight = WindowedTileTests.march30Midnight - tenOClock
        #expect(midnight == 14 * 3_600)
        #expect(await frames.wait { frames.armed.contains { $0 != nil && $0! <= midnight } }, "\(frames.armed)")
        // The wall clock moves with the hub's (the hub reads it again on every tick).
        wall.advance(to: tenOClock + midnight - 1)
        frames.advance(to: midnight - 1)
        // After that tick (the compared number still 10) the next wake-up is the midnight itself, not a minute later.
        #expect(await frames.wait { frames.armed.contains(midnight) }, "\(frames.armed)")
        #expect(!sink.texts.contains { $0.contains(#""heute":null"#) }, "nothing resets before midnight")
        wall.advance(to: tenOClock + midnight)
        frames.advance(to: midnight)
        let reset = await sink.wait {
            sink.texts.contains { $0.contains(#""heute":null"#) && $0.contains(#""tag":null"#) }
        }
        #expect(reset, "\(sink.texts.suffix(3))")
    }

    static func directory(_ yaml: String, _ name: String, frames: ManualClock, wall: ManualClock, commitAt time: Double)
        throws -> (DashboardDirectory, MetricStore, String)
    {
        let configuration = try RollboardConfiguration.parse(serverYAML: nil, dashboards: [("d/\(name).yaml", yaml)])
        let folder = NSTemporaryDirectory() + "rollboard-wallstep-\(UUID().uuidString)"
        let store = try MetricStore(directory: folder, logger: Logger(label: "test"), clock: { time })
        let done = DispatchSemaphore(value: 0)
        let update = MetricUpdate(id: "verkauf", value: 0, increment: 5)
        store.commitMetrics(MetricCommitRequest(metrics: [update.stored])) { _ in done.signal() }
        done.wait()
        let directory = try DashboardDirectory(
            configuration: configuration, store: store, metrics: ServerMetrics(), logger: Logger(label: "test"),
            clock: frames.clock, wall: wall.clock)
        return (directory, store, folder)
    }

    @Test("when the system clock is stepped, a clock tile shows the new time from its next second",
          arguments: [(3_600.0, "11:00:01"), (-3_600.0, "09:00:01"), (0.1, "10:00:01")])
    func steppedClock(step: Double, shown: String) async throws {
        let ten = WindowedTileTests.march29Midnight + 9 * 3_600  // 29 March 10:00 CEST
        let frames = ManualClock(at: 0)
        let wall = ManualClock(at: ten)
        let yaml = "id: uhr\ntimeZone: Europe/Berlin\ntiles:\n  - {id: zeit, type: clock, locale: de-DE}\n"
        let (directory, store, folder) = try Self.directory(yaml, "uhr", frames: frames, wall: wall, commitAt: ten)
        defer { store.close(); try? FileManager.default.removeItem(atPath: folder) }
        let sink = RecordingSink()
        _ = try #require(directory.hub("uhr")).connect(sink, fps: nil)
        #expect(await sink.wait { sink.messages.first?.contains(#""time":"10:00:00""#) == true }, "\(sink.messages)")
        wall.step(to: ten + 1 + step)
        frames.advance(to: 1)
        #expect(await sink.wait { sink.texts.contains { $0.contains(#""time":"\#(shown)""#) } }, "\(sink.texts.dropFirst())")
    }

    @Test("when the system clock is stepped, a carousel turning on it takes the new phase; one a command moved does not",
          arguments: [(10.0, 2), (-10.0, 0), (40.0, 2)])
    func steppedCarousel(step: Double, pageAtTen: Int) async throws {
        let ten = WindowedTileTests.march29Midnight + 9 * 3_600  // a whole number of 30-s turns since 1970
        let frames = ManualClock(at: 0)
        let wall = ManualClock(at: ten)
        let yaml = "id: lobby\ntiles:\n  - {id: news, type: carousel, interval: 10, slides: [{text: a}, {text: b}, {text: c}]}\n"
        let (directory, store, folder) = try Self.directory(yaml, "lobby", frames: frames, wall: wall, commitAt: ten)
        defer { store.close(); try? FileManager.default.removeItem(atPath: folder) }
        let hub = try #require(directory.hub("lobby"))
        /// The page a screen that connects now is shown.
        func pageShown() async -> String {
            let screen = RecordingSink()
            _ = hub.connect(screen, fps: nil)
            _ = await screen.wait { screen.messages.first != nil }
            let hello = screen.messages.first ?? ""
            return hello.range(of: #""page":[0-9]+"#, options: .regularExpression).map { String(hello[$0]) } ?? hello
        }
        #expect(await pageShown() == #""page":0"#)
        // The first advance is due at 10 s; meanwhile the wall clock was stepped: at 10 s it reads `step` s more.
        wall.step(to: ten + 10 + step)
        frames.advance(to: 10)
        #expect(await pageShown() == #""page":\#(pageAtTen)"#, "the wall reads \(10 + step) s into the turns")
        // A producer's command starts a schedule of its own (next advance 10 s after it): a later step leaves it.
        hub.apply(.carousel(.next, page: nil), toMetric: "news")
        wall.step(to: ten + 11 + step)
        frames.advance(to: 11)
        #expect(await pageShown() == #""page":\#((pageAtTen + 1) % 3)"#)
        wall.step(to: ten + 20 + step + 15)
        frames.advance(to: 20)
        #expect(await pageShown() == #""page":\#((pageAtTen + 2) % 3)"#, "one advance 10 s after the command")
    }

    @Test("when the system clock is stepped back, a hub that wakes at the old midnight waits for the real one")
    func steppedBack() async throws {
        try await Self.withKasseAtTen { (hub: DashboardHub, frames: ManualClock, wall: ManualClock) async throws in
            let sink = RecordingSink()
            _ = hub.connect(sink, fps: nil)
            #expect(await sink.wait { sink.messages.first?.contains(#""heute":{"text":"5""#) == true }, "\(sink.messages)")
            let oldMidnight = WindowedTileTests.march30Midnight - Self.tenOClock
            #expect(await frames.wait { frames.armed.contains(oldMidnight) }, "\(frames.armed)")
            // The wall clock was stepped back an hour meanwhile: at the old midnight it reads 23:00.
            wall.step(to: WindowedTileTests.march30Midnight - 3_600)
            frames.advance(to: oldMidnight)
            #expect(await frames.wait { frames.armed.contains(oldMidnight + 3_600) }, "\(frames.armed)")
            #expect(!sink.texts.contains { $0.contains(#""heute":null"#) }, "at 23:00 the day's sum stands")
            wall.step(to: WindowedTileTests.march30Midnight)
            frames.advance(to: oldMidnight + 3_600)
            #expect(await sink.wait { sink.texts.contains { $0.contains(#""heute":null"#) } },
                    "at the real midnight it resets: \(sink.texts.dropFirst())")
        }
    }

    @Test("when the system clock is stepped back across midnight, the window is the day the clock reads again")
    func steppedBackAcrossMidnight() async throws {
        // The day before ended on 5 (committed at 21:00); the node starts at 00:30, when today holds nothing.
        let halfPast = WindowedTileTests.march28Midnight + 1_800
        let frames = ManualClock(at: 0)
        let wall = ManualClock(at: halfPast)
        let (directory, store, folder) = try Self.directory(
            Self.kasse, "kasse", frames: frames, wall: wall, commitAt: WindowedTileTests.march28Midnight - 3 * 3_600)
        defer { store.close(); try? FileManager.default.removeItem(atPath: folder) }
        let hub = try #require(directory.hub("kasse"))
        // Two hours back: 22:30 the day before, whose sum is 5.
        wall.step(to: halfPast - 7_200 + 1)
        frames.step(to: 1)
        let sink = RecordingSink()
        _ = hub.connect(sink, fps: nil)
        #expect(await sink.wait { sink.messages.first != nil })
        #expect(sink.messages.first?.contains(#""heute":{"text":"0","target":5,"#) == true, "counts to 5: \(sink.messages)")
        // The hub then wakes at that day's midnight, about an hour and a half away, not a day and a half.
        frames.advance(to: 3)
        let midnight = WindowedTileTests.march28Midnight - (wall.now - frames.now)
        #expect(await frames.wait { frames.armed.contains { $0.map { abs($0 - midnight) < 0.01 } == true } }, "\(frames.armed)")
    }

    @Test("when the system clock is stepped forward past midnight, a screen that connects to a sleeping hub sees the new day")
    func steppedForward() async throws {
        try await Self.withKasseAtTen { (hub: DashboardHub, frames: ManualClock, wall: ManualClock) async throws in
            // An hour on the hub's clock, and the wall clock jumps to 00:30 the next day.
            wall.step(to: WindowedTileTests.march30Midnight + 1_800)
            frames.step(to: 3_600)
            let sink = RecordingSink()
            _ = hub.connect(sink, fps: nil)
            #expect(await sink.wait { sink.messages.first?.contains(#""heute":null"#) == true }, "\(sink.messages)")
        }
    }

    /// 29 March 10:00 CEST.
    static let tenOClock = WindowedTileTests.march29Midnight + 9 * 3_600

    /// Runs `body` with the kasse dashboard's hub, its day's sum 5 committed at 09:59, on a frame clock at 0 and a
    /// wall clock at ``tenOClock``.
    static func withKasseAtTen(_ body: (DashboardHub, ManualClock, ManualClock) async throws -> Void) async throws {
        let frames = ManualClock(at: 0)
        let wall = ManualClock(at: tenOClock)
        let (made, store, folder) = try Self.directory(
            kasse, "kasse", frames: frames, wall: wall, commitAt: tenOClock - 60)
        defer { store.close(); try? FileManager.default.removeItem(atPath: folder) }
        try await body(try #require(made.hub("kasse")), frames, wall)
    }

    static let kasse = """
        id: kasse
        timeZone: Europe/Berlin
        tiles:
          - {id: heute, type: counter, metric: verkauf, format: "%d", window: today, aggregate: sum}
        """
}
