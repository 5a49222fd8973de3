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

@Suite("Text tile")
struct TextTileTests {
    private static let notice = TileChange.text("Deploy freeze until Friday", color: "#e67e22")

    private func effects(_ actions: [HubAction]) -> [HubAction] {
        actions.filter { if case .wake = $0 { false } else { true } }
    }

    private func wake(_ actions: [HubAction]) -> Double? {
        for case .wake(let time) in actions { return time }
        return nil
    }

    private func makeMachine(calm: Bool = false) -> HubStateMachine {
        HubStateMachine(
            helloDashboard: #"{"id":"wall"}"#, tiles: [TextTile(tileID: "notice", text: "Welcome")],
            tilesByMetric: ["notice": ["notice"]], updatedAt: [:],
            configuration: .init(defaultFPS: 10, maxFPS: 60, slowClientTimeout: 5, calm: calm))
    }

    @Test("its state is the message and its colour, a colour that goes away is sent as null, and empty text clears it")
    func stateAndPatches() throws {
        var tile = TextTile(tileID: "notice", text: "Welcome")
        #expect(tile.encodedState(at: 0) == #"{"text":"Welcome"}"#)
        let before = tile.state(at: 0)
        try tile.apply(Self.notice, at: 1)
        #expect(tile.encodedState(at: 1) == ##"{"text":"Deploy freeze until Friday","color":"#e67e22"}"##)
        let colored = tile.state(at: 1)
        #expect(TileState.patch(from: before, to: colored)?.text == ##"{"text":"Deploy freeze until Friday","color":"#e67e22"}"##)
        try tile.apply(.text("", color: nil), at: 2)
        #expect(TileState.patch(from: colored, to: tile.state(at: 2))?.text == #"{"text":"","color":null}"#)
        try tile.apply(.value(3, interval: nil, animated: true), at: 3)
        #expect(tile.encodedState(at: 3) == #"{"text":""}"#, "other changes leave it as it was")
    }

    @Test("it says it may change only for a short window after a change, so a frame stamped just after the change still shows it")
    func motionWindow() throws {
        var tile = TextTile(tileID: "notice", text: "")
        #expect(tile.nextMotion(after: 0) == nil)
        try tile.apply(Self.notice, at: 10)
        #expect(tile.nextMotion(after: 9) == 10)
        #expect(tile.nextMotion(after: 10.02) == 10.02)
        #expect(tile.nextMotion(after: 10 + ChangeWindow.seconds + 0.01) == nil)
        #expect(tile.nextCalmMotion(after: 9) == nil)
        #expect(tile.calmState(at: 10) == tile.state(at: 10))
    }

    @Test("a new message reaches every screen in the next frame, and a screen that connects later gets it in its hello")
    func reachesScreens() {
        var machine = makeMachine()
        _ = machine.connect(1, fps: nil, now: 0)
        _ = machine.connect(2, fps: 30, now: 0)
        let applied = machine.apply(Self.notice, toMetric: "notice", committedAt: nil, now: 1)
        #expect(wake(applied) == 1)
        let patch = ##"{"text":"Deploy freeze until Friday","color":"#e67e22"}"##
        #expect(effects(machine.tick(now: 1)) == [
            .broadcast(stream: StreamKey(fps: 10), text: #"{"f":1,"t":{"notice":\#(patch)}}"#, to: [1]),
            .broadcast(stream: StreamKey(fps: 30), text: #"{"f":1,"t":{"notice":\#(patch)}}"#, to: [2]),
        ])
        #expect(effects(machine.tick(now: 1.1)).isEmpty, "nothing new: nothing sent")
        let hello = effects(machine.connect(3, fps: nil, now: 1.2)).first
        guard case .send(let text, 3)? = hello else {
            Issue.record("expected a hello, got \(String(describing: hello))")
            return
        }
        #expect(text.contains(#""tiles":{"notice":\#(patch)}"#))
        #expect(wake(machine.tick(now: 3)) == nil, "at rest once the window is over")
    }

    @Test("a frame computed after the change was stamped but before it arrived is followed by one that shows it")
    func lateArrival() {
        var machine = makeMachine()
        _ = machine.connect(1, fps: nil, now: 0)
        _ = machine.apply(.text("first", color: nil), toMetric: "notice", committedAt: nil, now: 1)
        _ = machine.tick(now: 1)
        _ = machine.tick(now: 1.3)
        _ = machine.apply(.text("second", color: nil), toMetric: "notice", committedAt: nil, now: 1.25)
        #expect(effects(machine.tick(now: 1.4)) == [
            .broadcast(stream: StreamKey(fps: 10), text: #"{"f":2,"t":{"notice":{"text":"second"}}}"#, to: [1])
        ])
    }

    @Test("a calm screen gets a new message as one frame too")
    func calmScreens() {
        var machine = makeMachine(calm: true)
        _ = machine.connect(1, fps: nil, now: 0)
        _ = machine.apply(Self.notice, toMetric: "notice", committedAt: nil, now: 1)
        let calm = StreamKey(fps: 10, isCalm: true)
        #expect(effects(machine.tick(now: 1)) == [
            .broadcast(
                stream: calm, text: ##"{"f":1,"t":{"notice":{"text":"Deploy freeze until Friday","color":"#e67e22"}}}"##,
                to: [1])
        ])
        #expect(wake(machine.tick(now: 1.1)) == nil)
    }
}
