import Logging
import RollboardTestSupport
import Testing

@testable import RollboardNet
@testable import RollboardCore
@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardMetrics
@testable import RollboardAccess
@testable import RollboardHub
@testable import RollboardAPI
@testable import RollboardServer

/// ``PlaylistHub`` driving real dashboard hubs on a manual wall clock: the playlist's timer fires when the test
/// moves the clock, never on its own. `t0` starts a turn of the rotation (demo for 10 s, second for 5 s).
@Suite("Playlist driver")
struct PlaylistDriverTests {
    static let t0 = 1_700_000_010.0

    /// A playlist over two real hubs, its clock at `time`.
    private struct Fixture {
        let clock: ManualClock
        let playlist: PlaylistHub
        let registry = ScreenRegistry()

        init(at time: Double) {
            let clock = ManualClock(at: time)
            let hubs = Dictionary(
                uniqueKeysWithValues: ["demo", "second"].map { id in
                    (
                        id,
                        DashboardHub(
                            dashboardID: id, helloDashboard: #"{"id":"\#(id)"}"#,
                            tiles: [RampTile(tileID: "a", from: 1, to: 1)], tilesByMetric: ["orders": ["a"]],
                            configuration: .init(), clock: .monotonic(), metrics: ServerMetrics(),
                            logger: Logger(label: "test"))
                    )
                })
            self.clock = clock
            self.playlist = PlaylistHub(
                configuration: PlaylistStateMachineTests.configuration, hubs: { hubs[$0] }, registry: registry,
                clock: clock.clock)
        }

        func connect(_ sink: RecordingSink) -> Int {
            playlist.connect(sink, fps: nil, calm: false, name: nil, address: nil, userAgent: nil)
        }

        /// Waits until the playlist's queue has carried out everything asked of it before.
        func settled() async {
            await withCheckedContinuation { done in playlist.status { _, _, _ in done.resume() } }
        }
    }

    /// The entry each playlist message named, and the dashboard of each hello, in the order they came.
    private func shown(_ sink: RecordingSink) -> [String] {
        sink.texts.compactMap { text in
            if text.hasPrefix(#"{"type":"playlist""#) {
                return text.contains(#""current":0"#) ? "entry 0" : text.contains(#""current":1"#) ? "entry 1" : "?"
            }
            if text.hasPrefix(#"{"type":"hello""#) {
                return text.contains(#""dashboard":{"id":"demo"}"#)
                    ? "demo" : text.contains(#""id":"second""#) ? "second" : "?"
            }
            return nil
        }
    }

    @Test("screens switch together when the clock reaches the entry's end, not before, each greeted before its hello")
    func switchesAtTheBoundary() async {
        let fixture = Fixture(at: Self.t0 + 9)
        let changes = Changes()
        let screens = [RecordingSink(changes: changes), RecordingSink(changes: changes)]
        for screen in screens { _ = fixture.connect(screen) }
        #expect(await changes.wait { screens.allSatisfy { shown($0) == ["entry 0", "demo"] } })
        await fixture.settled()
        #expect(fixture.clock.armed == [Self.t0 + 10], "one timer, armed for the entry's end")

        fixture.clock.advance(to: Self.t0 + 9.999)
        await fixture.settled()
        #expect(screens.allSatisfy { shown($0) == ["entry 0", "demo"] }, "nothing moves before the boundary")

        fixture.clock.advance(to: Self.t0 + 10)
        let moved = await changes.wait { screens.allSatisfy { shown($0) == ["entry 0", "demo", "entry 1", "second"] } }
        #expect(moved, "\(screens.map(shown))")
        await fixture.settled()
        #expect(fixture.clock.armed == [Self.t0 + 15])
        #expect(fixture.registry.all.map(\.dashboard) == ["second", "second"])
        #expect(fixture.registry.all.allSatisfy { $0.playlist == "wall" })
    }

    @Test("a hold keeps screens on their entry past its end, and a resume rotates them again from then on")
    func holdAndResume() async {
        let fixture = Fixture(at: Self.t0 + 2)
        let screen = RecordingSink()
        _ = fixture.connect(screen)
        #expect(await screen.wait { shown(screen) == ["entry 0", "demo"] })
        fixture.playlist.apply(StoredPlaylistCommand(id: "wall", action: .hold, seq: 1, updatedAt: Self.t0 + 3))
        #expect(await screen.wait { screen.texts.last?.contains(#""held":true,"endsIn":null"#) == true })
        await fixture.settled()
        #expect(fixture.clock.armed == [nil], "held: the timer is off")

        fixture.clock.advance(to: Self.t0 + 60)
        fixture.playlist.apply(StoredPlaylistCommand(id: "wall", action: .resume, seq: 2, updatedAt: Self.t0 + 60))
        #expect(await screen.wait { screen.texts.last?.contains(#""current":0,"held":false,"endsIn":10"#) == true })
        await fixture.settled()
        #expect(fixture.clock.armed == [Self.t0 + 70], "entry 0 gets its full ten seconds again")
        #expect(shown(screen) == ["entry 0", "demo", "entry 0", "entry 0"], "no switch while held")

        fixture.clock.advance(to: Self.t0 + 70)
        #expect(await screen.wait { shown(screen).suffix(2) == ["entry 1", "second"] })
    }

    @Test(
        "a wait for a command is answered once the command is applied, or with false when the clock passes its deadline"
    )
    func whenApplied() async {
        let fixture = Fixture(at: Self.t0)
        let answers = Synchronized<[Bool]>([])
        fixture.playlist.whenApplied(1, timeout: 2) { applied in answers.update { $0.append(applied) } }
        fixture.playlist.whenApplied(2, timeout: 2) { applied in answers.update { $0.append(applied) } }
        fixture.playlist.apply(StoredPlaylistCommand(id: "wall", action: .show(entry: 0), seq: 1, updatedAt: Self.t0))
        await fixture.settled()
        #expect(answers.update { $0 } == [true])
        #expect(fixture.clock.armed == [Self.t0 + 2], "the timer is armed for the deadline, before the entry's end")

        fixture.clock.advance(to: Self.t0 + 1.999)
        await fixture.settled()
        #expect(answers.update { $0 } == [true])
        fixture.clock.advance(to: Self.t0 + 2)
        await fixture.settled()
        #expect(answers.update { $0 } == [true, false])
    }
}
