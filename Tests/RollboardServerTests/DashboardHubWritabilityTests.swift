import Logging
import Testing

@testable import RollboardCore
@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardMetrics
@testable import RollboardAccess
@testable import RollboardHub
@testable import RollboardSources
@testable import RollboardAPI
@testable import RollboardServer

/// The hub's driver tells its machine what each sink says of its writability before every tick; driven on a manual
/// clock, with the hub's queue as the only wait.
@Suite("Dashboard hub writability")
struct DashboardHubWritabilityTests {
    /// Returns once the hub's queue has run everything asked of it before.
    private func statuses(_ hub: DashboardHub) async -> [Int: ScreenStatus] {
        await withCheckedContinuation { continuation in hub.screenStatuses { continuation.resume(returning: $0) } }
    }

    @Test("a sink that is full when a frame is due skips it, and gets a state once it can take messages again")
    func fullSinkSkipsThenCatchesUp() async {
        let clock = ManualClock()
        let hub = DashboardHub(
            dashboardID: "ops", helloDashboard: "{}", tiles: [RampTile(tileID: "a", from: 0, to: 0)],
            tilesByMetric: ["m": ["a"]], configuration: .init(defaultFPS: 10, maxFPS: 60, slowClientTimeout: 5),
            clock: clock.clock, metrics: ServerMetrics(), logger: Logger(label: "test"))
        let sink = RecordingSink()
        let id = hub.connect(sink, fps: nil)
        _ = await statuses(hub)
        #expect(sink.texts.count == 1, "the hello")

        sink.isWritable = false
        hub.apply(.value(10, interval: nil, animated: true, policy: nil), toMetric: "m")
        _ = await statuses(hub)
        clock.advance(to: 0.5)
        #expect(await statuses(hub)[id]?.framesSkipped == 1)
        #expect(sink.texts.count == 1, "nothing sent to a full sink")

        sink.isWritable = true
        clock.advance(to: 0.6)
        _ = await statuses(hub)
        #expect(sink.texts.count == 2)
        #expect(sink.texts.last?.hasPrefix(#"{"type":"state","seq":2,"c":0,"#) == true, "\(sink.texts)")
        #expect(sink.texts.last?.contains(#""a":{"value":6}"#) == true, "\(sink.texts)")
    }
}
