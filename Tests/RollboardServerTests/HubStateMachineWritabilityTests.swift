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

/// Writability reaches the hub's machine as events (`screenIsFull`, `screenBecameWritable`) and stays there until the
/// next one; ticks read it. Explicit instants, no clocks.
@Suite("Hub state machine writability")
struct HubStateMachineWritabilityTests {
    private static let rise = TileChange.value(10, interval: nil, animated: true, policy: nil)

    private func makeMachine(timeout: Double = 5) -> HubStateMachine {
        HubStateMachine(
            helloDashboard: #"{"id":"ops"}"#,
            tiles: [RampTile(tileID: "a", from: 0, to: 0), RampTile(tileID: "b", from: 5, to: 5)],
            tilesByMetric: ["m": ["a"], "n": ["b"]], updatedAt: [:],
            configuration: .init(defaultFPS: 10, maxFPS: 60, slowClientTimeout: timeout))
    }

    private func effects(_ actions: [HubAction]) -> [HubAction] {
        actions.filter { if case .wake = $0 { false } else { true } }
    }

    @Test("a screen said full skips every frame due until it is said writable, then gets a state and rejoins the broadcast")
    func fullUntilWritable() {
        var machine = makeMachine()
        _ = machine.connect(1, fps: nil, now: 0)
        _ = machine.connect(2, fps: nil, now: 0)
        machine.screenIsFull(2)
        _ = machine.apply(Self.rise, toMetric: "m", committedAt: nil, now: 0)
        #expect(effects(machine.tick(now: 0.2)) == [
            .broadcast(stream: 10, text: #"{"f":1,"t":{"a":{"value":2}}}"#, to: [1]), .skipped(1),
        ])
        #expect(effects(machine.tick(now: 0.3)) == [
            .broadcast(stream: 10, text: #"{"f":2,"t":{"a":{"value":3}}}"#, to: [1]), .skipped(1),
        ], "still full: nothing said otherwise")
        machine.screenBecameWritable(2)
        #expect(effects(machine.tick(now: 0.4)) == [
            .broadcast(stream: 10, text: #"{"f":3,"t":{"a":{"value":4}}}"#, to: [1]),
            .send(text: #"{"type":"state","seq":3,"c":0,"tiles":{"a":{"value":4},"b":{"value":5}}}"#, to: 2),
            .prime(stream: 10, to: [2]),
        ])
        #expect(effects(machine.tick(now: 0.5)) == [
            .broadcast(stream: 10, text: #"{"f":4,"t":{"a":{"value":5}}}"#, to: [1, 2])
        ])
        #expect(machine.screenStatuses[2]?.framesSkipped == 2)
    }

    @Test("the slow-client timeout runs from the first frame a full screen could not take, not from when it filled")
    func timeoutFromFirstSkippedFrame() {
        var machine = makeMachine(timeout: 1)
        _ = machine.connect(1, fps: nil, now: 0)
        machine.screenIsFull(1)
        #expect(effects(machine.tick(now: 5)).isEmpty, "nothing due: a full screen at rest is not behind")
        _ = machine.apply(Self.rise, toMetric: "m", committedAt: nil, now: 10)
        #expect(effects(machine.tick(now: 10.5)) == [.skipped(1)])
        #expect(effects(machine.tick(now: 11)) == [.skipped(1)], "half the timeout since the first skipped frame")
        #expect(effects(machine.tick(now: 11.5)) == [.endStream(10), .closeTooSlow(session: 1)])
        #expect(machine.sessionCount == 0)
    }

    @Test("writability events for a screen that is not connected change nothing")
    func eventsForUnknownScreens() {
        var machine = makeMachine()
        machine.screenIsFull(7)
        machine.screenBecameWritable(8)
        _ = machine.connect(7, fps: nil, now: 0)
        _ = machine.apply(Self.rise, toMetric: "m", committedAt: nil, now: 0)
        #expect(effects(machine.tick(now: 0.2)) == [
            .broadcast(stream: 10, text: #"{"f":1,"t":{"a":{"value":2}}}"#, to: [7])
        ])
    }
}
