import RollboardAnimation
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

private func board(_ pairs: KeyValuePairs<String, Double>) -> [LeaderboardEntry] {
    pairs.map { LeaderboardEntry(name: $0.key, value: $0.value) }
}

@Suite("Leaderboard tile")
struct LeaderboardTileTests {
    func tile(_ yaml: String, entries: [LeaderboardEntry]?, at time: Double = 0) throws -> LeaderboardTile {
        let configuration = try OneTileDashboard.configuration(tile: yaml)
        let tile = try #require(configuration.dashboard("demo")?.tiles.first)
        guard case .leaderboard(let options) = tile.options else { throw AnimationError.invalidConfiguration }
        return try LeaderboardTile(
            tileID: tile.id, leaderboard: options.leaderboard(), entries: entries, backlog: configuration.backlog(tile),
            maxLag: configuration.maxLag(tile), policy: tile.queue ?? .fifo, at: time)
    }

    static let yaml = "id: sales\ntype: leaderboard\nsize: 2\nduration: 2\neasing: linear\nprefix: \"$\""

    @Test("rows carry name, score as written, rank, line and opacity in thousandths; mid-move Alice is half way down while Bob, who climbs past her, has faded out")
    func wireState() throws {
        var leaderboard = try tile(Self.yaml, entries: board(["Alice": 10, "Bob": 8, "Carol": 1]))
        #expect(
            leaderboard.encodedState(at: 0)
                == #"{"n":["Alice","Bob"],"t":["$10","$8"],"r":[1,2],"y":[0,1000],"o":[1000,1000]}"#)
        try leaderboard.apply(.leaderboard(board(["Alice": 10, "Bob": 12, "Carol": 1])), at: 10)
        #expect(
            leaderboard.encodedState(at: 11)
                == #"{"n":["Bob","Alice"],"t":["$10","$10"],"r":[2,2],"y":[1000,500],"o":[0,1000]}"#)
        #expect(
            leaderboard.encodedState(at: 12)
                == #"{"n":["Bob","Alice"],"t":["$12","$10"],"r":[1,2],"y":[0,1000],"o":[1000,1000]}"#)
        #expect(leaderboard.nextMotion(after: 11) == 11)
        #expect(leaderboard.nextMotion(after: 12) == nil)
    }

    @Test("the one an entry displaces fades out on its line, then the entry fades in there; neither is drawn elsewhere")
    func enterAndLeave() throws {
        var leaderboard = try tile(Self.yaml, entries: board(["Alice": 10, "Bob": 8, "Carol": 1]))
        try leaderboard.apply(.leaderboard(board(["Alice": 10, "Bob": 8, "Carol": 9])), at: 0)
        #expect(
            leaderboard.encodedState(at: 0.5)
                == #"{"n":["Alice","Carol","Bob"],"t":["$10","$9","$8"],"r":[1,2,2],"y":[0,1000,1000],"o":[1000,0,500]}"#)
        #expect(
            leaderboard.encodedState(at: 2)
                == #"{"n":["Alice","Carol"],"t":["$10","$9"],"r":[1,2],"y":[0,1000],"o":[1000,1000]}"#)
    }

    @Test("a calm screen jumps: mid-move it already shows where the move ends")
    func calm() throws {
        var leaderboard = try tile(Self.yaml, entries: board(["Alice": 10, "Bob": 8]))
        try leaderboard.apply(.leaderboard(board(["Alice": 10, "Bob": 12])), at: 0)
        #expect(leaderboard.calmState(at: 0.2) == leaderboard.state(at: 2))
        #expect(leaderboard.calmState(at: 0.2) != leaderboard.state(at: 0.2))
    }

    @Test("without a board the state is null (the page shows —); the first board then shows at once")
    func noBoard() throws {
        var leaderboard = try tile(Self.yaml, entries: nil)
        #expect(leaderboard.encodedState(at: 0) == "null")
        try leaderboard.apply(.leaderboard(board(["Zoe": 3])), at: 1)
        #expect(leaderboard.encodedState(at: 1) == #"{"n":["Zoe"],"t":["$3"],"r":[1],"y":[0],"o":[1000]}"#)
        #expect(leaderboard.nextMotion(after: 1) == nil)
    }

    @Test("the lag bound is twice the duration: boards arriving every 0.2 s still rest on the last within it")
    func lag() throws {
        var leaderboard = try tile("id: sales\ntype: leaderboard\nduration: 1", entries: board(["A": 0]))
        for step in 1...10 { try leaderboard.apply(.leaderboard(board(["A": Double(step), "B": Double(10 - step)])), at: Double(step) * 0.2) }
        #expect(leaderboard.nextMotion(after: 2 + 2 + 1e-6) == nil)
        #expect(leaderboard.encodedState(at: 4.1) == #"{"n":["A","B"],"t":["10","0"],"r":[1,2],"y":[0,1000],"o":[1000,1000]}"#)
    }

    static let badLeaderboards: [(String, String)] = [
        ("id: l\ntype: leaderboard\nsize: 0", #"config/dashboards/demo.yaml: tile "l": size: must be between 1 and 50, got 0"#),
        ("id: l\ntype: leaderboard\nsize: many", #"config/dashboards/demo.yaml: tile "l": size: must be an integer, got many"#),
        ("id: l\ntype: leaderboard\nduration: 0.1", #"config/dashboards/demo.yaml: tile "l": duration: must be between 0.3 and 60, got 0.1"#),
        ("id: l\ntype: leaderboard\ngoal: 4", #"config/dashboards/demo.yaml: tile "l": goal: is an option of odometer tiles, not leaderboard tiles (leaderboard options: size, format, grouping, easing, duration, prefix, suffix, compact, locale, groupSeparator, decimalSeparator, currency)"#),
    ]

    @Test("hello carries the size and timing; boards go to it as leaderboards")
    func hello() throws {
        let (configuration, json) = try OneTileDashboard.hello(tile: "id: sales\ntype: leaderboard\nsize: 5", id: "sales")
        #expect(json.contains(#""size":5,"duration":2,"locale":null"#), "\(json)")
        #expect(json.contains(#""queue":"fifo","maxLag":4"#), "\(json)")
        #expect(configuration.catalog.kind(of: "sales") == .leaderboard)
    }
}
