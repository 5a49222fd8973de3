import Testing

@testable import RollboardNet
@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardMetrics
@testable import RollboardRedisLog
@testable import RollboardAccess
@testable import RollboardHub
@testable import RollboardSources
@testable import RollboardAPI
@testable import RollboardServer

/// A failing source's tiles on the screens: the `sources` message, on explicit inputs.
@Suite("Hub: tiles whose source fails")
struct HubSourceProblemTests {
    private func makeMachine() -> HubStateMachine {
        HubStateMachine(
            helloDashboard: #"{"id":"ops"}"#,
            tiles: [RampTile(tileID: "a", from: 0, to: 0), RampTile(tileID: "b", from: 5, to: 5)],
            tilesByMetric: ["m": ["a"], "n": ["b"]], updatedAt: [:],
            configuration: .init(defaultFPS: 10, maxFPS: 60, slowClientTimeout: 5))
    }

    private func sends(_ actions: [HubAction]) -> [String] {
        actions.compactMap { if case .send(let text, _) = $0 { text } else { nil } }
    }

    @Test("every screen is told which tiles' source fails and why, once per change, and when it recovers")
    func toldOncePerChange() {
        var machine = makeMachine()
        _ = machine.connect(1, fps: nil, now: 0)
        #expect(machine.setSourceProblem(metrics: ["m"], reason: nil).isEmpty, "up already")
        #expect(machine.setSourceProblem(metrics: ["m", "elsewhere"], reason: "upstream answered HTTP 503") == [
            .send(text: #"{"type":"sources","stale":{"a":"upstream answered HTTP 503"}}"#, to: 1),
            .prime(stream: 10, to: [1]),
        ])
        #expect(machine.setSourceProblem(metrics: ["m"], reason: "upstream answered HTTP 503").isEmpty, "no change")
        #expect(
            sends(machine.setSourceProblem(metrics: ["n"], reason: "answer is not JSON")) == [
                #"{"type":"sources","stale":{"a":"upstream answered HTTP 503","b":"answer is not JSON"}}"#
            ])
        #expect(
            sends(machine.setSourceProblem(metrics: ["m"], reason: nil)) == [
                #"{"type":"sources","stale":{"b":"answer is not JSON"}}"#
            ])
        #expect(sends(machine.setSourceProblem(metrics: ["n"], reason: nil)) == [#"{"type":"sources","stale":{}}"#])
    }

    @Test("a metric no tile of this dashboard shows changes nothing here")
    func otherDashboards() {
        var machine = makeMachine()
        _ = machine.connect(1, fps: nil, now: 0)
        #expect(machine.setSourceProblem(metrics: ["elsewhere"], reason: "cannot connect").isEmpty)
    }

    @Test("a screen that connects while a source fails is told right after its hello; none is told when all are up")
    func joiners() {
        var machine = makeMachine()
        #expect(sends(machine.connect(1, fps: nil, now: 0)).count == 1, "only the hello")
        _ = machine.setSourceProblem(metrics: ["n"], reason: "untrusted certificate")
        let joined = sends(machine.connect(2, fps: nil, now: 1))
        #expect(joined.count == 2)
        #expect(joined.last == #"{"type":"sources","stale":{"b":"untrusted certificate"}}"#)
    }
}
