import Foundation
import Testing

@testable import RollboardNet
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

/// The hub's logic driven with explicit times: no clocks, no sleeping.
@Suite("Hub state machine")
struct HubStateMachineTests {
    private static let dashboard = #"{"id":"ops"}"#
    private static let rise = TileChange.value(10, interval: nil, animated: true, policy: nil)

    private func makeMachine(
        tiles: [RampTile] = [RampTile(tileID: "a", from: 0, to: 0), RampTile(tileID: "b", from: 5, to: 5)],
        updatedAt: [String: Double] = [:], timeout: Double = 5
    ) -> HubStateMachine {
        HubStateMachine(
            helloDashboard: Self.dashboard, tiles: tiles, tilesByMetric: ["m": ["a"], "n": ["b"]], updatedAt: updatedAt,
            configuration: .init(defaultFPS: 10, maxFPS: 60, slowClientTimeout: timeout))
    }

    /// Every action but the wake-ups.
    private func effects(_ actions: [HubAction]) -> [HubAction] {
        actions.filter { if case .wake = $0 { false } else { true } }
    }

    private func wake(_ actions: [HubAction]) -> Double? {
        for case .wake(let time) in actions { return time }
        return nil
    }

    @Test("a new screen gets the hello with protocol 2, the stream's frame number and every tile's full state, then the primer")
    func helloComesFirst() {
        var machine = makeMachine(updatedAt: ["b": 1_700_000_000.5])
        let actions = machine.connect(1, fps: nil, now: 0)
        #expect(effects(actions) == [
            .send(
                text: #"{"type":"hello","protocol":2,"fps":10,"fpsRange":[1,60],"seq":0,"changes":{"epoch":"","seq":0},"dashboard":{"id":"ops"},"tiles":{"a":{"value":0},"b":{"value":5,"updatedAt":1700000000.5}}}"#,
                to: 1),
            .prime(stream: 10, to: [1]),
        ])
        #expect(wake(actions) == nil, "nothing moves, so the hub sleeps")
    }

    @Test("screens at the same rate get each frame as one broadcast holding only the tiles that moved, numbered by the stream")
    func framesAreSharedByTheStream() {
        var machine = makeMachine()
        _ = machine.connect(1, fps: nil, now: 0)
        _ = machine.connect(2, fps: nil, now: 0)
        let applied = machine.apply(Self.rise, toMetric: "m", committedAt: nil, now: 0)
        #expect(wake(applied) == 0)
        #expect(effects(machine.tick(now: 0.5)) == [
            .broadcast(stream: 10, text: #"{"f":1,"t":{"a":{"value":5}}}"#, to: [1, 2])
        ])
        let last = machine.tick(now: 1.0)
        #expect(effects(last) == [.broadcast(stream: 10, text: #"{"f":2,"t":{"a":{"value":10}}}"#, to: [1, 2])])
        #expect(effects(machine.tick(now: 1.1)).isEmpty)
        #expect(wake(machine.tick(now: 1.2)) == nil, "at rest: no more wake-ups")
    }

    @Test("a tick encodes each moving tile once however many screens watch, and never a tile at rest")
    func tilesAreEncodedOncePerTick() {
        let moving = RampTile(tileID: "a", from: 0, to: 0)
        let still = RampTile(tileID: "b", from: 5, to: 5)
        var machine = makeMachine(tiles: [moving, still])
        for id in 1...50 { _ = machine.connect(id, fps: nil, now: 0) }
        _ = machine.apply(Self.rise, toMetric: "m", committedAt: nil, now: 0)
        let before = (moving.encodes.value, still.encodes.value)
        for frame in 1...10 { _ = machine.tick(now: Double(frame) / 10) }
        #expect(moving.encodes.value - before.0 == 10)
        #expect(still.encodes.value == before.1)
    }

    @Test("screens at different rates are different streams, each with its own frame numbers")
    func ratesAreSeparateStreams() {
        var machine = makeMachine()
        _ = machine.connect(1, fps: 10, now: 0)
        _ = machine.connect(2, fps: 2, now: 0)
        _ = machine.apply(Self.rise, toMetric: "m", committedAt: nil, now: 0)
        var broadcasts: [StreamKey: [String]] = [:]
        for step in 1...15 {
            for case .broadcast(let stream, let text, _) in machine.tick(now: Double(step) / 10) {
                broadcasts[stream, default: []].append(text)
            }
        }
        #expect(broadcasts[10]?.count == 10)
        #expect(broadcasts[2] == [#"{"f":1,"t":{"a":{"value":5}}}"#, #"{"f":2,"t":{"a":{"value":10}}}"#],
                "frames show the stream's own slots, half a second apart from its start")
    }

    @Test("frames show moments one frame apart however late the timer fires; a tick over a frame late starts anew")
    func framesFollowTheGrid() {
        var machine = makeMachine()
        _ = machine.connect(1, fps: nil, now: 0)
        _ = machine.apply(Self.rise, toMetric: "m", committedAt: nil, now: 0)
        var texts: [String] = []
        for now in [0, 0.104, 0.197, 0.3089, 0.4, 0.65] {
            for case .broadcast(_, let text, _) in machine.tick(now: now) { texts.append(text) }
        }
        #expect(texts == [
            #"{"f":1,"t":{"a":{"value":1}}}"#, #"{"f":2,"t":{"a":{"value":2}}}"#, #"{"f":3,"t":{"a":{"value":3}}}"#,
            #"{"f":4,"t":{"a":{"value":4}}}"#, #"{"f":5,"t":{"a":{"value":6.5}}}"#,
        ])
    }

    @Test("a screen that joins mid-move gets the stream's states in its hello and the very next shared frame")
    func joinMidMove() {
        var machine = makeMachine()
        _ = machine.connect(1, fps: nil, now: 0)
        _ = machine.apply(Self.rise, toMetric: "m", committedAt: nil, now: 0)
        _ = machine.tick(now: 0.3)
        let hello = machine.connect(2, fps: nil, now: 0.35)
        guard case .send(let text, 2) = hello.first else {
            Issue.record("no hello: \(hello)")
            return
        }
        #expect(text.contains(#""seq":1,"#) && text.contains(#""a":{"value":3}"#))
        #expect(effects(machine.tick(now: 0.4)) == [
            .broadcast(stream: 10, text: #"{"f":2,"t":{"a":{"value":4}}}"#, to: [1, 2])
        ])
    }

    @Test("a paused screen gets nothing; on resume it gets a state with every tile, its primer, and then shared frames")
    func pauseAndResume() {
        var machine = makeMachine()
        _ = machine.connect(1, fps: nil, now: 0)
        _ = machine.connect(2, fps: nil, now: 0)
        _ = machine.receive(.success(.pause), from: 2, now: 0)
        _ = machine.apply(Self.rise, toMetric: "m", committedAt: nil, now: 0)
        #expect(effects(machine.tick(now: 0.5)) == [
            .broadcast(stream: 10, text: #"{"f":1,"t":{"a":{"value":5}}}"#, to: [1])
        ])
        let resumed = machine.receive(.success(.resume), from: 2, now: 0.55)
        #expect(wake(resumed) == 0.6, "the next frame slot")
        #expect(effects(machine.tick(now: 0.6)) == [
            .broadcast(stream: 10, text: #"{"f":2,"t":{"a":{"value":6}}}"#, to: [1]),
            .send(text: #"{"type":"state","seq":2,"c":0,"tiles":{"a":{"value":6},"b":{"value":5}}}"#, to: 2),
            .prime(stream: 10, to: [2]),
        ])
        #expect(effects(machine.tick(now: 0.7)) == [
            .broadcast(stream: 10, text: #"{"f":3,"t":{"a":{"value":7}}}"#, to: [1, 2])
        ])
    }

    @Test("a backed-up screen skips frames, then gets a state and rejoins; one stuck past the timeout is closed")
    func backpressure() {
        var machine = makeMachine(timeout: 1)
        _ = machine.connect(1, fps: nil, now: 0)
        _ = machine.connect(2, fps: nil, now: 0)
        _ = machine.connect(3, fps: nil, now: 0)
        _ = machine.apply(Self.rise, toMetric: "m", committedAt: nil, now: 0)
        machine.screenIsFull(2)
        machine.screenIsFull(3)
        #expect(effects(machine.tick(now: 0.2)) == [
            .broadcast(stream: 10, text: #"{"f":1,"t":{"a":{"value":2}}}"#, to: [1]), .skipped(2),
        ])
        _ = machine.tick(now: 0.3)
        machine.screenBecameWritable(2)
        #expect(effects(machine.tick(now: 0.4)) == [
            .broadcast(stream: 10, text: #"{"f":3,"t":{"a":{"value":4}}}"#, to: [1]),
            .send(text: #"{"type":"state","seq":3,"c":0,"tiles":{"a":{"value":4},"b":{"value":5}}}"#, to: 2),
            .prime(stream: 10, to: [2]),
            .skipped(1),
        ])
        #expect(machine.screenStatuses[1]?.framesSkipped == 0)
        #expect(machine.screenStatuses[2]?.framesSkipped == 2)
        #expect(machine.screenStatuses[3]?.framesSkipped == 3)
        var closed: [HubAction] = []
        for step in 5...12 { closed += machine.tick(now: Double(step) / 10) }
        #expect(closed.contains(.closeTooSlow(session: 3)))
        #expect(machine.sessionCount == 2)
    }

    @Test("a calm screen gets one frame with where the change ends and nothing in between, beside a moving stream")
    func calmScreensJump() {
        var machine = makeMachine()
        let hello = effects(machine.connect(1, fps: 10, calm: true, now: 0))
        guard case .send(let text, 1) = hello.first else { Issue.record("no hello: \(hello)"); return }
        #expect(text.contains(#""fps":10,"fpsRange":[1,60],"motion":"reduced","seq":0"#))
        #expect(hello.last == .prime(stream: StreamKey(fps: 10, isCalm: true), to: [1]))
        _ = machine.connect(2, fps: 10, now: 0)
        _ = machine.apply(Self.rise, toMetric: "m", committedAt: nil, now: 0)
        var calm: [String] = []
        var moving: [String] = []
        for step in 1...15 {
            for case .broadcast(let stream, let text, _) in machine.tick(now: Double(step) / 10) {
                if stream.isCalm { calm.append(text) } else { moving.append(text) }
            }
        }
        #expect(calm == [#"{"f":1,"t":{"a":{"value":10}}}"#])
        #expect(moving.count == 10)
        #expect(wake(machine.tick(now: 2)) == nil, "both at rest")
    }

    @Test("the hello says which frame rates a screen may get: from 1 up to the hub's maximum")
    func helloSaysTheFrameRates() {
        var machine = HubStateMachine(
            helloDashboard: Self.dashboard, tiles: [RampTile(tileID: "a", from: 0, to: 0)], tilesByMetric: ["m": ["a"]],
            updatedAt: [:], configuration: .init(defaultFPS: 10, maxFPS: 24, slowClientTimeout: 5))
        let hello = effects(machine.connect(1, fps: 60, now: 0))
        guard case .send(let text, 1) = hello.first else { Issue.record("no hello: \(hello)"); return }
        #expect(text.contains(#""fps":24,"fpsRange":[1,24],"#))
    }

    @Test("a dashboard in calm motion makes every screen calm")
    func calmDashboard() {
        var machine = HubStateMachine(
            helloDashboard: Self.dashboard, tiles: [RampTile(tileID: "a", from: 0, to: 0)], tilesByMetric: ["m": ["a"]],
            updatedAt: [:], configuration: .init(defaultFPS: 10, maxFPS: 60, slowClientTimeout: 5, calm: true))
        #expect(effects(machine.connect(1, fps: nil, now: 0)).last == .prime(stream: StreamKey(fps: 10, isCalm: true), to: [1]))
    }

    private func value(_ value: Double) -> TileChange {
        .value(value, interval: nil, animated: true, policy: nil)
    }

    @Test("a screen that comes back is shown the changes it missed from where it stood, then shares the stream again")
    func comebackReplaysWhatWasMissed() {
        var machine = HubStateMachine(
            helloDashboard: Self.dashboard, tiles: [RampTile(tileID: "a", from: 0, to: 0), RampTile(tileID: "b", from: 5, to: 5)],
            tilesByMetric: ["m": ["a"], "n": ["b"]], updatedAt: [:],
            configuration: .init(defaultFPS: 10, maxFPS: 60, slowClientTimeout: 5), epoch: "e1", storeSeq: 0)
        _ = machine.connect(1, fps: nil, now: 0)
        _ = machine.apply(value(10), toMetric: "m", committedAt: nil, seq: 1, now: 0)
        var first: [String] = []
        for step in 1...12 {
            for case .broadcast(_, let text, _) in machine.tick(now: Double(step) / 10) { first.append(text) }
        }
        #expect(first.first == #"{"f":1,"c":1,"t":{"a":{"value":1}}}"#, "the first frame after a stored change says its seq")
        #expect(first.dropFirst().allSatisfy { !$0.contains(#""c":"#) })
        _ = machine.apply(value(20), toMetric: "m", committedAt: nil, seq: 2, now: 2)
        for step in 21...32 { _ = machine.tick(now: Double(step) / 10) }

        let hello = effects(machine.connect(2, fps: nil, since: ResumePoint(epoch: "e1", seq: 1), now: 4))
        guard case .send(let text, 2) = hello.first else { Issue.record("no hello: \(hello)"); return }
        #expect(text.contains(#""changes":{"epoch":"e1","seq":1},"resume":"replay""#), "it stands where it was until the replay ends")
        #expect(text.contains(#""tiles":{"a":{"value":10},"b":{"value":5}}"#), "where the screen stood: \(text)")
        var own: [String] = []
        var shared: [String] = []
        for step in 41...55 {
            for action in machine.tick(now: Double(step) / 10) {
                switch action {
                case .send(let text, 2): own.append(text)
                case .broadcast(_, let text, let ids) where ids.contains(2): shared.append(text)
                default: break
                }
            }
        }
        let values = own.compactMap { text -> Double? in
            guard let range = text.range(of: #""a":{"value":"#) else { return nil }
            return Double(text[range.upperBound...].prefix { $0 != "}" })
        }
        #expect(values.first == 11 && values.last == 20 && values == values.sorted(), "10 → 20 played again: \(values)")
        #expect(own.last?.hasPrefix(#"{"type":"state","seq":"#) == true, "back on the stream with a state: \(own.suffix(2))")
        #expect(own.last?.contains(#""c":2"#) == true)
        _ = machine.apply(value(25), toMetric: "m", committedAt: nil, seq: 3, now: 6)
        for step in 61...63 {
            for case .broadcast(_, let text, let ids) in machine.tick(now: Double(step) / 10) where ids.contains(2) {
                shared.append(text)
            }
        }
        #expect(!shared.isEmpty, "the next change reaches it in the shared frame")
    }

    @Test("a hub built before its log opened takes the epoch when the feed turns live, and replays nothing from before")
    func logOpenedLate() {
        var machine = HubStateMachine(
            helloDashboard: Self.dashboard, tiles: [RampTile(tileID: "a", from: 0, to: 0)], tilesByMetric: ["m": ["a"]],
            updatedAt: [:], configuration: .init(defaultFPS: 10, maxFPS: 60, slowClientTimeout: 5), epoch: "",
            storeSeq: 0)
        _ = machine.setFeed(live: false)
        let early = effects(machine.connect(1, fps: nil, now: 0))
        guard case .send(let earlyHello, 1) = early.first else { Issue.record("no hello"); return }
        #expect(earlyHello.contains(#""changes":{"epoch":"","seq":0}"#), "no epoch is claimed before the log opened")
        // The log opened: the values it loaded (up to seq 140), then the feed turns live with the cluster's epoch.
        _ = machine.apply(.value(38, interval: nil, animated: false, policy: nil), toMetric: "m", committedAt: nil,
                          seq: 140, now: 1)
        let live = effects(machine.setFeed(live: true, epoch: "e7"))
        #expect(live.contains { if case .send(let text, 1) = $0 { text.contains("live") } else { false } })
        for (since, resume) in [(106 as UInt64, "full"), (140, "none")] {
            let hello = effects(machine.connect(Int(since), fps: nil, since: ResumePoint(epoch: "e7", seq: since), now: 2))
            guard case .send(let text, _) = hello.first else { Issue.record("no hello"); return }
            #expect(text.contains(#""resume":"\#(resume)""#), "from \(since): \(text)")
            #expect(text.contains(#""changes":{"epoch":"e7","seq":140}"#))
        }
    }

    @Test(
        "a screen that comes back with nothing missed, from another epoch, or from before the replay gets the stream's states",
        arguments: [("e1", 600 as UInt64, "none"), ("e0", 10, "full"), ("e1", 1, "full"), ("e1", 700, "full")])
    func comebackWithoutReplay(epoch: String, seq: UInt64, resume: String) {
        var machine = HubStateMachine(
            helloDashboard: Self.dashboard, tiles: [RampTile(tileID: "a", from: 0, to: 0)], tilesByMetric: ["m": ["a"]],
            updatedAt: [:], configuration: .init(defaultFPS: 10, maxFPS: 60, slowClientTimeout: 5), epoch: "e1",
            storeSeq: 0)
        for seq in 1...600 { _ = machine.apply(value(Double(seq)), toMetric: "m", committedAt: nil, seq: UInt64(seq), now: 0) }
        let hello = effects(machine.connect(1, fps: nil, since: ResumePoint(epoch: epoch, seq: seq), now: 10))
        guard case .send(let text, 1) = hello.first else { Issue.record("no hello"); return }
        #expect(text.contains(#""resume":"\#(resume)""#), "\(text)")
        #expect(text.contains(#""tiles":{"a":{"value":600}}"#))
    }

    @Test("a resume point is EPOCH:SEQ", arguments: [
        ("3f2a9c:17", ResumePoint(epoch: "3f2a9c", seq: 17)), ("e1:0", ResumePoint(epoch: "e1", seq: 0)),
        ("", nil), ("e1", nil), ("e1:-1", nil), ("e1:x", nil), (":5", nil), ("a b:5", nil), ("e1:5:6", nil),
    ])
    func resumePoint(text: String, expected: ResumePoint?) {
        #expect(ResumePoint(text) == expected)
    }

    @Test("a reload goes to every screen as a message of its own, each primed again for its stream")
    func reloadReachesEveryScreen() {
        var machine = makeMachine()
        _ = machine.connect(1, fps: 10, now: 0)
        _ = machine.connect(2, fps: 2, now: 0)
        _ = machine.connect(3, fps: 10, now: 0)
        let reload = #"{"type":"reload"}"#
        #expect(machine.reload() == [
            .send(text: reload, to: 1), .send(text: reload, to: 2), .send(text: reload, to: 3),
            .prime(stream: 2, to: [2]), .prime(stream: 10, to: [1, 3]),
        ])
    }

    @Test("an announcement reaches every screen, and a screen that connects before it ends gets the time left; 0 takes it down")
    func announcementReachesJoiners() {
        var machine = makeMachine()
        _ = machine.connect(1, fps: nil, now: 0)
        #expect(machine.announce("Fire drill at 3 pm", seconds: 30, now: 10) == [
            .send(text: #"{"type":"announce","text":"Fire drill at 3 pm","seconds":30}"#, to: 1),
            .prime(stream: 10, to: [1]),
        ])
        let joined = effects(machine.connect(2, fps: nil, now: 25.5))
        #expect(joined.count == 3)
        #expect(joined[1] == .send(text: #"{"type":"announce","text":"Fire drill at 3 pm","seconds":14.5}"#, to: 2))
        #expect(joined[2] == .prime(stream: 10, to: [2]))
        #expect(effects(machine.connect(3, fps: nil, now: 40.5)).count == 2, "the announcement is over")
        _ = machine.announce("Lunch", seconds: 60, now: 50)
        #expect(machine.announce("", seconds: 0, now: 51).first == .send(text: #"{"type":"announce","text":"","seconds":0}"#, to: 1))
        #expect(effects(machine.connect(4, fps: nil, now: 52)).count == 2, "taken down")
    }

    @Test("screens hear when the feed goes stale and live again, once each; a screen joining while stale hears it after its hello")
    func feedStatus() {
        var machine = makeMachine()
        _ = machine.connect(1, fps: nil, now: 0)
        #expect(machine.setFeed(live: true).isEmpty, "live already")
        #expect(machine.setFeed(live: false) == [
            .send(text: #"{"type":"status","feed":"stale"}"#, to: 1), .prime(stream: 10, to: [1]),
        ])
        #expect(machine.setFeed(live: false).isEmpty, "stale already")
        let joined = effects(machine.connect(2, fps: nil, now: 5))
        #expect(joined.count == 3)
        guard case .send(let hello, to: 2) = joined[0] else {
            Issue.record("the hello comes first: \(joined[0])")
            return
        }
        #expect(hello.contains(#""feed":"stale","#), "the hello says the feed is stale")
        #expect(joined[1] == .send(text: #"{"type":"status","feed":"stale"}"#, to: 2))
        #expect(machine.setFeed(live: true) == [
            .send(text: #"{"type":"status","feed":"live"}"#, to: 1), .send(text: #"{"type":"status","feed":"live"}"#, to: 2),
            .prime(stream: 10, to: [1, 2]),
        ])
        #expect(effects(machine.connect(3, fps: nil, now: 6)).count == 2, "live: nothing after the hello")
        guard case .send(let liveHello, to: 4)? = effects(machine.connect(4, fps: nil, now: 7)).first else {
            Issue.record("a hello to screen 4")
            return
        }
        #expect(!liveHello.contains(#""feed""#), "a live hello names no feed")
    }

    @Test("identify goes to one screen only, primed again; an unknown screen gets nothing")
    func identifyOneScreen() {
        var machine = makeMachine()
        _ = machine.connect(1, fps: nil, now: 0)
        _ = machine.connect(2, fps: nil, now: 0)
        #expect(machine.identify(2, name: "Lobby \"TV\"", seconds: 5) == [
            .send(text: #"{"type":"identify","name":"Lobby \"TV\"","seconds":5}"#, to: 2), .prime(stream: 10, to: [2]),
        ])
        #expect(machine.identify(9, name: "x", seconds: 5).isEmpty)
        #expect(machine.screenStatuses == [
            1: ScreenStatus(fps: 10, isPaused: false, framesSkipped: 0),
            2: ScreenStatus(fps: 10, isPaused: false, framesSkipped: 0),
        ])
    }

    @Test("a viewer's own carousel move gives that screen frames of its own while the others stay on the stream")
    func ownTilesDiverge() {
        var machine = makeMachine()
        _ = machine.connect(1, fps: nil, now: 0)
        _ = machine.connect(2, fps: nil, now: 0)
        _ = machine.receive(.success(.carousel(tileID: "b", action: .next, page: nil)), from: 2, now: 0)
        _ = machine.apply(Self.rise, toMetric: "m", committedAt: nil, now: 0)
        #expect(effects(machine.tick(now: 0.5)) == [
            .broadcast(stream: 10, text: #"{"f":1,"t":{"a":{"value":5}}}"#, to: [1]),
            .send(text: #"{"f":1,"t":{"a":{"value":5},"b":{"value":55}}}"#, to: 2),
        ])
    }

    @Test("a screen that changes its rate moves to that rate's stream with a state of its own")
    func fpsChangeMovesStreams() {
        var machine = makeMachine()
        _ = machine.connect(1, fps: nil, now: 0)
        #expect(effects(machine.receive(.success(.fps(500)), from: 1, now: 0)) == [.endStream(10)])
        #expect(effects(machine.tick(now: 0.1)) == [
            .send(text: #"{"type":"state","seq":0,"c":0,"tiles":{"a":{"value":0},"b":{"value":5}}}"#, to: 1),
            .prime(stream: 60, to: [1]),
        ])
    }

    @Test("a malformed message closes its screen with 1007; closing the hub closes every screen with 1001")
    func closes() {
        var machine = makeMachine()
        _ = machine.connect(1, fps: nil, now: 0)
        _ = machine.connect(2, fps: nil, now: 0)
        _ = machine.connect(3, fps: nil, now: 0)
        let refused = machine.receive(.failure(.init(detail: "bad")), from: 1, now: 0)
        #expect(effects(refused) == [.close(session: 1, code: .invalidPayload, reason: "bad")])
        #expect(effects(machine.closeAll()) == [
            .close(session: 2, code: .goingAway, reason: "server shutting down"),
            .close(session: 3, code: .goingAway, reason: "server shutting down"),
            .endStream(10),
        ])
        #expect(machine.sessionCount == 0)
    }

    @Test("a change a tile refuses is reported and changes nothing")
    func refusedChange() {
        var machine = makeMachine()
        _ = machine.connect(1, fps: nil, now: 0)
        let actions = machine.apply(.value(.nan, interval: nil, animated: true, policy: nil), toMetric: "m", committedAt: nil, now: 0)
        #expect(effects(actions) == [.changeRefused(tile: "a", reason: "refused")])
        #expect(effects(machine.tick(now: 0.1)).isEmpty)
    }

    @Test("the last screen of a stream leaving ends the stream")
    func lastScreenEndsStream() {
        var machine = makeMachine()
        _ = machine.connect(1, fps: nil, now: 0)
        _ = machine.connect(2, fps: nil, now: 0)
        #expect(effects(machine.disconnect(1, now: 1)).isEmpty)
        #expect(effects(machine.disconnect(2, now: 1)) == [.endStream(10)])
    }
}
