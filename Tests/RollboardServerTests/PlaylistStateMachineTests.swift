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

/// A playlist's logic driven with explicit wall-clock times: no clocks, no sleeping. `t0` starts a turn of the
/// rotation (entry 0 for 10 s, entry 1 for 5 s).
@Suite("Playlist state machine")
struct PlaylistStateMachineTests {
    static let t0 = 1_700_000_010.0
    static let configuration = PlaylistConfiguration(
        id: "wall", title: "Lobby",
        entries: [.init(dashboard: "demo", seconds: 10), .init(dashboard: "second", seconds: 5)],
        file: "playlists/wall.yaml")

    /// A machine started at `at` with screen 1 joined to the entry showing as session 11.
    private func started(at time: Double = t0) -> PlaylistStateMachine {
        var machine = PlaylistStateMachine(configuration: Self.configuration, now: time)
        _ = machine.start(now: time)
        _ = machine.connect(1, now: time)
        machine.joined(1, session: 11)
        return machine
    }

    private func command(_ action: StoredPlaylistCommand.Action, seq: UInt64, at time: Double) -> StoredPlaylistCommand
    {
        StoredPlaylistCommand(id: "wall", action: action, seq: seq, updatedAt: time)
    }

    private func playlistMessage(current: Int, held: Bool, endsIn: String) -> String {
        #"{"type":"playlist","id":"wall","title":"Lobby","entries":[{"dashboard":"demo","seconds":10},{"dashboard":"second","seconds":5}],"#
            + #""current":\#(current),"held":\#(held),"endsIn":\#(endsIn)}"#
    }

    @Test(
        "a screen that connects joins the entry showing, greeted with the playlist's state; the timer is armed for the entry's end"
    )
    func connectJoinsTheEntryShowing() {
        var machine = PlaylistStateMachine(configuration: Self.configuration, now: Self.t0 + 12)
        #expect(machine.start(now: Self.t0 + 12) == [.wake(at: Self.t0 + 15)])
        #expect(
            machine.connect(1, now: Self.t0 + 12) == [
                .join(screen: 1, dashboard: "second", greeting: playlistMessage(current: 1, held: false, endsIn: "3"))
            ])
        #expect(machine.session(of: 1) == nil, "no session until the hub took it")
        machine.joined(1, session: 11)
        #expect(machine.session(of: 1) == 11 && machine.screenCount == 1)
    }

    @Test(
        "the rotation moves every screen at the entry's boundary, never before, and arms the timer for the next",
        arguments: [
            (9.0, false, 10.0), (9.999, false, 10.0), (10.0, true, 15.0), (14.9, true, 15.0),
            (15.0, false, 25.0),  // a whole entry went by unseen: entry 0 shows again, nobody moves
        ])
    func switchesAtTheBoundary(after seconds: Double, moves: Bool, wake: Double) {
        var machine = started()
        _ = machine.connect(2, now: Self.t0)
        machine.joined(2, session: 12)
        let actions = machine.tick(now: Self.t0 + seconds)
        let leaves: [PlaylistAction] =
            moves ? [.leave(screen: 1, session: 11, generation: 2), .leave(screen: 2, session: 12, generation: 2)] : []
        #expect(actions == leaves + [.wake(at: Self.t0 + wake)])
        #expect(machine.current == (moves ? 1 : 0))
    }

    @Test(
        "a screen joins the next entry once its old hub let it go, greeted with the entry's state; a stale move is dropped"
    )
    func joinsAfterLeaving() {
        var machine = started()
        #expect(
            machine.tick(now: Self.t0 + 10) == [.leave(screen: 1, session: 11, generation: 2), .wake(at: Self.t0 + 15)])
        #expect(machine.session(of: 1) == nil, "the screen is between hubs")
        // An operator shows entry 0 before the old hub answered: the screen, on no hub, goes there at once.
        let shown = machine.apply(command(.show(entry: 0), seq: 1, at: Self.t0 + 10.5), now: Self.t0 + 10.5)
        #expect(
            shown == [
                .join(screen: 1, dashboard: "demo", greeting: playlistMessage(current: 0, held: false, endsIn: "10")),
                .wake(at: Self.t0 + 20.5),
            ])
        #expect(machine.left(1, generation: 2, now: Self.t0 + 10.6).isEmpty, "the first move was overtaken")
        machine.joined(1, session: 21)
        #expect(machine.session(of: 1) == 21)
    }

    @Test(
        "holding keeps the entry showing past its boundary; resuming gives it its full seconds from then on",
        arguments: [(3.0, 0, "demo"), (12.0, 1, "second")])
    func holdAndResume(heldAt seconds: Double, entry: Int, dashboard: String) {
        var machine = started()
        let generation = entry == 0 ? 2 : 3
        if !machine.tick(now: Self.t0 + seconds).isEmpty, entry == 1 {
            _ = machine.left(1, generation: 2, now: Self.t0 + seconds)
        }
        machine.joined(1, session: 12)  // wherever the boundary took it
        let held = machine.apply(command(.hold, seq: 1, at: Self.t0 + seconds), now: Self.t0 + seconds + 0.1)
        #expect(
            held == [
                .send(text: playlistMessage(current: entry, held: true, endsIn: "null"), screen: 1, session: 12),
                .wake(at: nil),
            ])
        #expect(machine.tick(now: Self.t0 + 100) == [.wake(at: nil)], "held: no boundary")
        #expect(machine.current == entry && machine.isHeld)
        let resumed = machine.apply(command(.resume, seq: 2, at: Self.t0 + 100), now: Self.t0 + 100)
        let seconds = Self.configuration.entries[entry].seconds
        #expect(
            resumed == [
                .send(
                    text: playlistMessage(current: entry, held: false, endsIn: jsonNumber(seconds, places: 3)),
                    screen: 1, session: 12),
                .wake(at: Self.t0 + 100 + seconds),
            ])
        #expect(
            machine.tick(now: Self.t0 + 100 + seconds) == [
                .leave(screen: 1, session: 12, generation: generation),
                .wake(at: Self.t0 + 100 + seconds + (entry == 0 ? 5 : 10)),
            ])
        #expect(
            machine.left(1, generation: generation, now: Self.t0 + 100 + seconds).first.map {
                if case .join(_, let next, _) = $0 { next != dashboard } else { false }
            } == true)
    }

    @Test(
        "showing an entry moves every screen there at once for its full seconds; a command seen before, or an entry the playlist no longer has, moves nobody"
    )
    func show() {
        var machine = started()
        let show = command(.show(entry: 1), seq: 1, at: Self.t0 + 2)
        #expect(
            machine.apply(show, now: Self.t0 + 2) == [
                .leave(screen: 1, session: 11, generation: 2), .wake(at: Self.t0 + 7),
            ])
        #expect(machine.apply(show, now: Self.t0 + 2.5).isEmpty, "applied already")
        #expect(
            machine.apply(command(.show(entry: 7), seq: 2, at: Self.t0 + 3), now: Self.t0 + 3) == [
                .wake(at: Self.t0 + 7)
            ])
        #expect(machine.appliedSeq == 2)
    }

    @Test(
        "a wait for a command is answered when it is applied, at once when it was, or with false at its deadline",
        arguments: [
            (waitFor: UInt64(1), applyAt: 1.0, tickAt: 9.0, answers: [true]),
            (waitFor: 1, applyAt: nil, tickAt: 1.9, answers: []),
            (waitFor: 1, applyAt: nil, tickAt: 2.0, answers: [false]),
            (waitFor: 0, applyAt: nil, tickAt: 0.5, answers: [true]),
        ] as [(waitFor: UInt64, applyAt: Double?, tickAt: Double, answers: [Bool])])
    func waitApplied(waitFor seq: UInt64, applyAt: Double?, tickAt: Double, answers: [Bool]) {
        var machine = started()
        var actions = machine.waitApplied(seq, waiter: 7, timeout: 2, now: Self.t0)
        if seq > 0 { #expect(actions == [.wake(at: Self.t0 + 2)], "woken at the deadline, before the entry's end") }
        if let applyAt {
            actions += machine.apply(command(.hold, seq: seq, at: Self.t0 + applyAt), now: Self.t0 + applyAt)
        }
        actions += machine.tick(now: Self.t0 + tickAt)
        let answered = actions.compactMap { if case .answer(7, let applied) = $0 { applied } else { nil } }
        #expect(answered == answers)
    }

    @Test(
        "a screen that goes away is forgotten with its session; closing the playlist closes every screen and stops the rotation"
    )
    func disconnectAndClose() {
        var machine = started()
        _ = machine.connect(2, now: Self.t0)
        #expect(machine.disconnect(1) == [.forget(screen: 1, session: 11)])
        #expect(machine.disconnect(1).isEmpty)
        #expect(
            machine.closeAll(code: .unknownDashboard, reason: "playlist removed") == [
                .close(screen: 2, session: nil, code: .unknownDashboard, reason: "playlist removed"), .wake(at: nil),
            ])
        #expect(machine.screenCount == 0)
    }

    @Test("a reload restarts the rotation from the shared epoch and moves every screen to the entry showing under it")
    func reconfigure() {
        var machine = started()
        _ = machine.apply(command(.hold, seq: 1, at: Self.t0 + 1), now: Self.t0 + 1)
        var changed = Self.configuration
        changed.entries = [.init(dashboard: "second", seconds: 4), .init(dashboard: "demo", seconds: 4)]
        // 1_700_000_012 is 4 (mod 8): the second half of the new 8-second turn, entry 1 (demo) until 1_700_000_016.
        #expect(
            machine.reconfigure(changed, now: Self.t0 + 2) == [
                .leave(screen: 1, session: 11, generation: 2), .wake(at: Self.t0 + 6),
            ])
        #expect(!machine.isHeld, "a reload starts the rotation again")
        #expect(
            machine.left(1, generation: 2, now: Self.t0 + 2).map {
                if case .join(_, let dashboard, _) = $0 { dashboard } else { "" }
            } == ["demo"])
    }

    @Test(
        "an announcement reaches every screen on a hub, and a screen that joins a dashboard meanwhile gets what is left of it",
        arguments: [(3.0, "7"), (9.5, "0.5"), (10.0, nil), (12.0, nil)])
    func announcementFollowsTheScreens(joinAfter seconds: Double, left: String?) {
        var machine = started()
        let shown = machine.announce("Fire drill", seconds: 10, now: Self.t0)
        #expect(shown == [.send(text: #"{"type":"announce","text":"Fire drill","seconds":10}"#, screen: 1, session: 11)])
        _ = machine.connect(2, now: Self.t0 + seconds)
        #expect(machine.afterJoining(2, now: Self.t0 + seconds) == [], "no session yet: nothing to send")
        machine.joined(2, session: 12)
        let expected: [PlaylistAction] = left.map {
            [.send(text: #"{"type":"announce","text":"Fire drill","seconds":\#($0)}"#, screen: 2, session: 12)]
        } ?? []
        #expect(machine.afterJoining(2, now: Self.t0 + seconds) == expected)
    }

    @Test("an announcement of 0 seconds takes the running one down: screens that join later are not shown it")
    func announcementTakenDown() {
        var machine = started()
        _ = machine.announce("Fire drill", seconds: 60, now: Self.t0)
        let down = machine.announce("", seconds: 0, now: Self.t0 + 1)
        #expect(down == [.send(text: #"{"type":"announce","text":"","seconds":0}"#, screen: 1, session: 11)])
        _ = machine.connect(2, now: Self.t0 + 2)
        machine.joined(2, session: 12)
        #expect(machine.afterJoining(2, now: Self.t0 + 2) == [])
    }

    @Test("reloading the page reaches every screen on a hub, in order with its frames")
    func reload() {
        var machine = started()
        _ = machine.connect(2, now: Self.t0)
        #expect(machine.reload() == [.send(text: #"{"type":"reload"}"#, screen: 1, session: 11)])
    }
}
