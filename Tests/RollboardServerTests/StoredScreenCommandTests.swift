import Testing

@testable import RollboardCore
@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardMetrics
@testable import RollboardHub
@testable import RollboardSources
@testable import RollboardAPI

@Suite("Stored screen command")
struct StoredScreenCommandTests {
    @Test(
        "an announcement shows for what is left of its seconds when a node applies it, and a take-down always applies",
        arguments: [
            (seconds: 20.0, appliedAfter: 0.0, left: 20.0 as Double?),
            (20, 0.25, 19.75),
            (20, 19.5, 0.5),
            (20, 20, nil),
            (20, 45, nil),
            (20, -3, 20),  // a node whose clock is behind the committing one's shows it in full
            (0, 0, 0),
            (0, 600, 0),
        ])
    func secondsLeft(seconds: Double, appliedAfter: Double, left: Double?) {
        let command = StoredScreenCommand(
            action: .announce(dashboard: "demo", text: "Fire drill", seconds: seconds), seq: 7, updatedAt: 1_000)
        #expect(command.secondsLeft(at: 1_000 + appliedAfter) == left)
    }

    @Test("an announcement everywhere or to a playlist counts its seconds like one to a dashboard")
    func otherAnnouncements() {
        for action in [
            StoredScreenCommand.Action.announceEverywhere(text: "x", seconds: 20),
            .announcePlaylist(playlist: "wall", text: "x", seconds: 20),
        ] {
            let command = StoredScreenCommand(action: action, seq: 7, updatedAt: 1_000)
            #expect(command.secondsLeft(at: 1_005) == 15 && command.secondsLeft(at: 1_020) == nil)
        }
    }

    @Test("a reload has no seconds")
    func reloadHasNoSeconds() {
        #expect(StoredScreenCommand(action: .reloadDashboard("demo"), seq: 1, updatedAt: 5).secondsLeft(at: 5) == nil)
    }

    @Test(
        "every action reads back as it was written",
        arguments: [
            StoredScreenCommand.Action.announce(dashboard: "lobby", text: "Café — 3 pm", seconds: 86_400),
            .announce(dashboard: "demo", text: "", seconds: 0), .reloadDashboard("demo"), .reloadPlaylist("wall"),
            .announceEverywhere(text: "Fire drill at 3", seconds: 60),
            .announcePlaylist(playlist: "wall", text: "Welcome", seconds: 0.5),
            .assign(screen: "Lobby TV", page: "/p/wall?name=Lobby%20TV&theme=dark&kiosk"),
            .reloadScreen("Lobby TV"), .identify(screen: "Café TV", seconds: 2.5),
        ])
    func roundTrip(action: StoredScreenCommand.Action) throws {
        let command = StoredScreenCommand(action: action, seq: 42, updatedAt: 1_700_000_000.125)
        var writer = BinaryWriter()
        command.encode(into: &writer)
        var reader = BinaryReader(writer.bytes[...])
        #expect(StoredScreenCommand(reader: &reader) == command)
        #expect(reader.isAtEnd)
    }

    @Test("an announcement with negative or non-finite seconds, or an unknown action, does not decode")
    func refusesDamage() {
        // Kind 3 (everywhere) names no dashboard, so one with an id is damage too.
        for (kind, seconds) in [(UInt8(0), -1.0), (0, .infinity), (0, .nan), (4, -1), (3, 1), (8, 1)] {
            var writer = BinaryWriter()
            writer.write(UInt64(1))
            writer.write(kind)
            writer.write("demo")
            writer.write("text")
            writer.write(seconds)
            writer.write(1_000.0)
            var reader = BinaryReader(writer.bytes[...])
            #expect(StoredScreenCommand(reader: &reader) == nil, "kind \(kind), seconds \(seconds)")
        }
    }

    @Test(
        "an assignment is kind 15, a named screen's reload or identify 16 (an earlier version skips both), the rest 7",
        arguments: [
            (StoredScreenCommand.Action.assign(screen: "Hall", page: "/d/demo?name=Hall"), UInt8(15)),
            (.reloadScreen("Hall"), 16), (.identify(screen: "Hall", seconds: 5), 16),
            (.reloadDashboard("demo"), 7), (.announceEverywhere(text: "x", seconds: 1), 7),
        ])
    func kindByte(action: StoredScreenCommand.Action, kind: UInt8) throws {
        let change = StoreChange.screens(StoredScreenCommand(action: action, seq: 9, updatedAt: 1_000))
        #expect(change.payload.first == kind)
        #expect(StoreChange(payload: change.payload[...]) == change)
        #expect(StoreChange.unknownKind(ofPayload: change.payload[...]) == nil)
    }

    @Test("an identify of no seconds, negative or not finite does not decode", arguments: [0, -1, Double.nan, .infinity])
    func identifyNeedsSeconds(seconds: Double) {
        var writer = BinaryWriter()
        StoredScreenCommand(action: .identify(screen: "Hall", seconds: seconds), seq: 1, updatedAt: 9).encode(into: &writer)
        var reader = BinaryReader(writer.bytes[...])
        #expect(StoredScreenCommand(reader: &reader) == nil)
    }

    @Test("an identify shows for what is left of its seconds when a node applies it", arguments: [(1.0, 4.0), (5, nil)])
    func identifySecondsLeft(appliedAfter: Double, left: Double?) {
        let command = StoredScreenCommand(action: .identify(screen: "Hall", seconds: 5), seq: 3, updatedAt: 1_000)
        #expect(command.secondsLeft(at: 1_000 + appliedAfter) == left)
        #expect(StoredScreenCommand(action: .reloadScreen("Hall"), seq: 4, updatedAt: 1_000).secondsLeft(at: 1_000) == nil)
    }

    @Test("an assignment to a page that is not a path does not decode")
    func assignmentNeedsAPath() {
        var writer = BinaryWriter()
        writer.write(UInt64(1))
        writer.write(UInt8(5))
        writer.write("Hall")
        writer.write("https://elsewhere.example/")
        writer.write(1_000.0)
        var reader = BinaryReader(writer.bytes[...])
        #expect(StoredScreenCommand(reader: &reader) == nil)
    }
}
