import Testing

@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardMetrics
@testable import RollboardRedisLog
@testable import RollboardAccess
@testable import RollboardHub
@testable import RollboardSources
@testable import RollboardAPI
@testable import RollboardServer

/// The machine counts the changes its tiles took (a calm stream that showed fewer owes its screens a frame); a change
/// no tile shows or takes is not one of them. Explicit instants, no clocks.
@Suite("Hub state machine change count")
struct HubStateMachineChangeCountTests {
    private static let rise = TileChange.value(10, interval: nil, animated: true, policy: nil)

    private func makeMachine() -> HubStateMachine {
        HubStateMachine(
            helloDashboard: #"{"id":"ops"}"#,
            tiles: [RampTile(tileID: "a", from: 0, to: 0), RampTile(tileID: "b", from: 5, to: 5)],
            tilesByMetric: ["m": ["a", "b"]], updatedAt: [:],
            configuration: .init(defaultFPS: 10, maxFPS: 60, slowClientTimeout: 5))
    }

    private func effects(_ actions: [HubAction]) -> [HubAction] {
        actions.filter { if case .wake = $0 { false } else { true } }
    }

    @Test("a change to a metric no tile shows moves nothing and is not counted; the tiles show the store up to its seq")
    func unshownChange() {
        var machine = makeMachine()
        _ = machine.connect(1, fps: 10, calm: true, now: 0)
        #expect(machine.apply(Self.rise, toMetric: "elsewhere", committedAt: 1, seq: 7, now: 1).isEmpty)
        #expect(machine.changeCount == 0)
        #expect(effects(machine.tick(now: 1.5)).isEmpty)
        guard case .send(let hello, 2) = effects(machine.connect(2, fps: nil, now: 2)).first else {
            Issue.record("no hello")
            return
        }
        #expect(hello.contains(#""changes":{"epoch":"","seq":7}"#))
    }

    @Test("a screen that connects is told the store's position the directory passed, beyond the last change shown")
    func positionBeyondTheLastShownChange() {
        var machine = makeMachine()
        _ = machine.apply(Self.rise, toMetric: "m", committedAt: nil, seq: 5, now: 0)
        let hello = effects(machine.connect(1, fps: nil, since: ResumePoint(epoch: "", seq: 9), changesThrough: 9, now: 1))
        guard case .send(let text, 1) = hello.first else {
            Issue.record("no hello: \(hello)")
            return
        }
        #expect(text.contains(#""changes":{"epoch":"","seq":9},"resume":"none""#), "\(text)")
    }

    @Test("a change every tile refuses is not counted")
    func refusedChange() {
        var machine = makeMachine()
        let refused = TileChange.value(.nan, interval: nil, animated: true, policy: nil)
        #expect(effects(machine.apply(refused, toMetric: "m", committedAt: nil, now: 1)).count == 2)
        #expect(machine.changeCount == 0)
    }

    @Test("a change is counted once however many tiles take it, and a calm screen is sent where it ends")
    func takenChange() {
        var machine = makeMachine()
        _ = machine.connect(1, fps: 10, calm: true, now: 0)
        _ = machine.apply(Self.rise, toMetric: "m", committedAt: nil, now: 1)
        #expect(machine.changeCount == 1)
        #expect(effects(machine.tick(now: 1.1)) == [
            .broadcast(stream: .init(fps: 10, isCalm: true), text: #"{"f":1,"t":{"a":{"value":10},"b":{"value":10}}}"#, to: [1])
        ])
    }
}
