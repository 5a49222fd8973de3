import Dispatch
import Foundation
import Logging
import RollboardTestSupport
import Synchronization
import Testing

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
        #expect(await eventually { !sink.messages.isEmpty })
        let hello = sink.messages.first ?? ""
        #expect(hello.contains(
            #""heute":{"text":"12","target":12,"trend":"up","delta":2,"deltaText":"+20 %","sense":"better","versus":"this time yesterday","updatedAt":"#),
            "\(hello)")
        #expect(hello.contains(#""tag":{"text":"12","target":12,"updatedAt":"#), "\(hello)")

        // The hub's timer is armed on its injected clock: the compared number's refresh, and the midnight 14 hours on.
        let midnight = WindowedTileTests.march30Midnight - tenOClock
        #expect(midnight == 14 * 3_600)
        #expect(await eventually { frames.armed.contains { $0 != nil && $0! <= midnight } }, "\(frames.armed)")
        frames.advance(to: midnight - 1)
        // After that tick (the compared number still 10) the next wake-up is the midnight itself, not a minute later.
        #expect(await eventually { frames.armed.contains(midnight) }, "\(frames.armed)")
        #expect(!sink.texts.contains { $0.contains(#""heute":null"#) }, "nothing resets before midnight")
        frames.advance(to: midnight)
        let reset = await eventually {
            sink.texts.contains { $0.contains(#""heute":null"#) && $0.contains(#""tag":null"#) }
        }
        #expect(reset, "\(sink.texts.suffix(3))")
    }
}
