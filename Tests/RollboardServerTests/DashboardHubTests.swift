import Dispatch
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

@Suite("Dashboard hub")
struct DashboardHubTests {
    @Test("a new screen gets the hello with the layout and every tile's current state")
    func helloComesFirst() async {
        let hub = DashboardHub.ops()
        let sink = RecordingSink()
        _ = hub.connect(sink, fps: nil)
        #expect(await sink.wait { !sink.messages.isEmpty })
        #expect(sink.messages == [
            #"{"type":"hello","protocol":2,"fps":30,"fpsRange":[1,60],"seq":0,"changes":{"epoch":"","seq":0},"dashboard":{"id":"ops","title":"Ops","tiles":[{"id":"a","type":"counter"}]},"tiles":{"a":{"value":1}}}"#
        ])
    }

    @Test("a change to a metric rolls every screen to the new value, ending exactly on it")
    func changesReachEveryScreen() async {
        let hub = DashboardHub.ops()
        let changes = Changes()
        let first = RecordingSink(changes: changes)
        let second = RecordingSink(changes: changes)
        _ = hub.connect(first, fps: 60)
        _ = hub.connect(second, fps: nil)
        hub.apply(.value(9, interval: nil, animated: true), toMetric: "orders")
        let finished = await changes.wait { [first, second].allSatisfy { $0.texts.last?.contains(#""a":{"value":9}"#) == true } }
        #expect(finished, "\(first.texts.suffix(2)) \(second.texts.suffix(2))")
        #expect(first.texts.count > second.texts.count)
        #expect(first.texts.dropFirst().allSatisfy { $0.hasPrefix(#"{"f":"#) })
    }

    @Test("screens at the same rate receive byte-identical frames, and a later screen's hello shows the change")
    func screensShareFrames() async {
        let hub = DashboardHub.ops()
        let changes = Changes()
        let sinks = (0..<4).map { _ in RecordingSink(changes: changes) }
        for sink in sinks { _ = hub.connect(sink, fps: 60) }
        hub.apply(.value(7, interval: nil, animated: true), toMetric: "orders")
        #expect(await changes.wait { sinks.allSatisfy { $0.texts.last?.contains(#""a":{"value":7}"#) == true } })
        #expect(Set(sinks.map { $0.texts.dropFirst() }).count == 1, "every screen got the same frames")
        let late = RecordingSink()
        _ = hub.connect(late, fps: nil)
        #expect(await late.wait { !late.messages.isEmpty })
        #expect(late.messages.first?.contains(#""tiles":{"a":{"value":7}}"#) == true)
        #expect(hub.sessionCount == 5)
    }

    /// Waits until the hub's queue has carried out everything asked of it before (a timer that fired included).
    private func settled(_ hub: DashboardHub) async {
        await withCheckedContinuation { done in hub.screenStatuses { _ in done.resume() } }
    }

    @Test("an idle dashboard arms no timer and sends no frames, however much time passes")
    func idleDashboardIsQuiet() async {
        let time = ManualClock()
        let hub = DashboardHub.ops(clock: time.clock)
        let sink = RecordingSink()
        _ = hub.connect(sink, fps: 60)
        await settled(hub)
        #expect(time.armed == [nil])
        time.advance(to: 60)
        await settled(hub)
        #expect(sink.texts.count == 1, "only the hello: \(sink.texts)")
    }

    @Test("a change arms the hub's timer on its own clock; each time it fires the screen gets a frame, until the tile rests")
    func timerRunsOnTheHubClock() async {
        let time = ManualClock(at: 100)
        let hub = DashboardHub.ops(clock: time.clock)
        let sink = RecordingSink()
        _ = hub.connect(sink, fps: 10)
        hub.apply(.value(9, interval: nil, animated: true), toMetric: "orders")
        await settled(hub)
        #expect(time.armed == [100], "the frame is due at once")
        var fired: [Double] = []
        while let due = time.armed.first ?? nil, fired.count < 50 {
            time.advance(to: due)
            await settled(hub)
            fired.append(due)
        }
        #expect(time.armed == [nil], "at rest: the timer is off")
        let gaps = zip(fired.dropFirst(), fired).map { $0 - $1 }
        #expect((10...12).contains(fired.count) && gaps.allSatisfy { abs($0 - 0.1) < 1e-6 }, "every 0.1 s: \(fired)")
        let frames = sink.texts.dropFirst()
        #expect(frames.count >= 10 && frames.count <= fired.count, "at most one frame each time it fires")
        #expect(frames.last?.contains(#""a":{"value":9}"#) == true)
    }

    @Test("a screen that sends a malformed message is closed with 1007")
    func malformedMessageCloses() async {
        let hub = DashboardHub.ops()
        let sink = RecordingSink()
        let id = hub.connect(sink, fps: nil)
        hub.receive(text: "{nope", from: id)
        #expect(await sink.wait { sink.closeCode == .invalidPayload })
    }

    @Test("a paused screen gets no frames while others do")
    func pauseActsOnOneScreen() async {
        let hub = DashboardHub.ops()
        let paused = RecordingSink()
        let watching = RecordingSink()
        let pausedID = hub.connect(paused, fps: nil)
        _ = hub.connect(watching, fps: nil)
        hub.receive(text: #"{"type":"pause"}"#, from: pausedID)
        hub.apply(.value(3, interval: nil, animated: true), toMetric: "orders")
        #expect(await watching.wait { watching.texts.last?.contains(#""a":{"value":3}"#) == true })
        #expect(paused.texts.count == 1)
    }

    @Test("closing the hub sends 1001 to every screen")
    func shutdownSendsGoingAway() {
        let hub = DashboardHub.ops()
        let sinks = (0..<3).map { _ in RecordingSink() }
        for sink in sinks { _ = hub.connect(sink, fps: nil) }
        let group = DispatchGroup()
        hub.closeAll(group)
        #expect(group.wait(timeout: .now() + 5) == .success)
        #expect(sinks.allSatisfy { $0.closeCode == .goingAway })
        #expect(hub.sessionCount == 0)
    }

    /// A network loop that connects a screen must never wait for the hub: here the hub is stuck sending the first
    /// screen's hello, and connecting (and messaging) a second screen still returns at once.
    @Test("connecting never waits for a hub that is busy", .timeLimit(.minutes(1)))
    func connectDoesNotWaitForTheHub() async {
        let hub = DashboardHub.ops()
        let stuck = BlockingSink()
        _ = hub.connect(stuck, fps: nil)
        #expect(stuck.waitUntilBlocked())
        let other = RecordingSink()
        let id = hub.connect(other, fps: nil)
        hub.receive(text: #"{"type":"pause"}"#, from: id)
        #expect(other.messages.isEmpty)
        stuck.release()
        #expect(await other.wait { other.texts.count == 1 })
    }

    @Test("an fps message above the server's maximum is brought down to it")
    func inBandFPSIsCapped() async {
        let hub = DashboardHub(
            dashboardID: "ops", helloDashboard: "{}", tiles: [RampTile(tileID: "a", from: 1, to: 1)],
            tilesByMetric: ["orders": ["a"]],
            configuration: .init(defaultFPS: 10, maxFPS: 12, slowClientTimeout: 10),
            clock: .monotonic(), metrics: ServerMetrics(), logger: Logger(label: "test"))
        let sink = RecordingSink()
        let id = hub.connect(sink, fps: 60)
        #expect(await sink.wait { sink.messages.first?.contains(#""fps":12"#) == true })
        hub.receive(text: #"{"type":"fps","value":60}"#, from: id)
        hub.apply(.value(9, interval: 1, animated: true), toMetric: "orders")
        #expect(await sink.wait { sink.texts.last?.contains(#""a":{"value":9}"#) == true })
        #expect(sink.texts.count <= 2 + 14, "a state, then at most 12 frames in one second, got \(sink.texts.count)")
    }
}

/// A sink whose first send blocks until released, as a stuck hub would.
private final class BlockingSink: FrameSink {
    private let entered = DispatchSemaphore(value: 0)
    private let gate = DispatchSemaphore(value: 0)

    var isWritable: Bool { true }

    func send(text: String) {
        entered.signal()
        gate.wait()
    }

    func send(_ message: PreparedMessage) {}

    func close(code: WebSocketCloseCode, reason: String) {}

    /// Whether a send is blocked (waits up to five seconds for one).
    func waitUntilBlocked() -> Bool {
        entered.wait(timeout: .now() + 5) == .success
    }

    func release() {
        gate.signal()
    }
}
