import Testing

@testable import RollboardAnimation
@testable import RollboardConfig
@testable import RollboardCore
@testable import RollboardServer
@testable import RollboardSources

private let dashboardYAML = """
    id: dev
    title: Dev
    grid: {columns: 4, rows: 2}
    tiles:
      - {id: stars, type: counter, metric: stars, position: {column: 1, row: 1}}
      - {id: committers, type: leaderboard, position: {column: 2, row: 1}}
    """

private func parse(_ yaml: String) throws(ConfigurationError) -> SourceConfiguration? {
    try RollboardConfiguration.parse(
        serverYAML: nil, dashboards: [("config/dashboards/dev.yaml", dashboardYAML)],
        sources: [("config/sources/repo.yaml", yaml)]
    ).sources.first
}

private func problems(_ yaml: String) -> [String] {
    do {
        _ = try parse(yaml)
        return []
    } catch {
        return error.problems
    }
}

/// A `json` source may feed a leaderboard: the array at `items`, each item's name and score by JSON Pointers relative
/// to the item (the same pointers as a metric's, RFC 6901).
@Suite("JSON leaderboard source")
struct JSONLeaderboardSourceTests {
    static let source = """
        type: json
        url: http://127.0.0.1:1/stats
        maxRows: 3
        metrics:
          - metric: stars
            pointer: /stars
          - leaderboard: committers
            items: /data
            name: /login
            score: /count
        """

    static func values(_ body: String) throws(SourceFailure) -> SourceValues {
        let source = try! #require(try parse(Self.source))
        return try SourceAnswer.jsonSourceValues(Array(body.utf8), source: source)
    }

    @Test("the leaderboard entry is read next to the metrics, with its three pointers")
    func configuration() throws {
        let source = try #require(try parse(Self.source))
        #expect(source.metricIDs == ["stars"])
        #expect(source.maxRows == 3)
        #expect(source.leaderboards == [.init(leaderboard: "committers", query: nil, items: "/data", name: "/login", score: "/count")])
    }

    @Test("one answer gives the metric and the board, in the array's order")
    func board() throws {
        let body = #"{"stars": 7, "data": [{"login": "ada", "count": 12}, {"login": "bob", "count": 3.5}]}"#
        let values = try Self.values(body)
        #expect(values.metrics == ["stars": 7])
        #expect(values.leaderboards == ["committers": [.init(name: "ada", value: 12), .init(name: "bob", value: 3.5)]])
        #expect(try Self.values(#"{"stars": 7, "data": []}"#).leaderboards == ["committers": []])
    }

    @Test(
        "an answer that cannot make a board is a failure naming the board and the pointer",
        arguments: [
            (#"{"stars": 1}"#, "committers: nothing at /data"),
            (#"{"stars": 1, "data": {"login": "ada"}}"#, "committers: expected an array at /data, got an object"),
            (#"{"stars": 1, "data": [{"count": 1}]}"#, "committers: nothing at /data/0/login"),
            (#"{"stars": 1, "data": [{"login": 5, "count": 1}]}"#, "committers: expected a string at /data/0/login, got a number"),
            (#"{"stars": 1, "data": [{"login": "a", "count": 1}, {"login": "b", "count": "2"}]}"#,
             "committers: /data/1/count is a string, not a number"),
            (#"{"stars": 1, "data": [{"login": "a", "count": 1}, {"login": "a", "count": 2}]}"#,
             "committers: expected each name once, got \"a\" twice"),
            (#"{"stars": 1, "data": [{"login": "a", "count": 1}, {"login": "b", "count": 1}, {"login": "c", "count": 1}, {"login": "d", "count": 1}]}"#,
             "committers: more than 3 rows (maxRows)"),
        ])
    func failures(_ body: String, expected: String) {
        #expect(throws: SourceFailure.self) { try Self.values(body) }
        do {
            _ = try Self.values(body)
        } catch {
            #expect(error.description == expected)
        }
    }

    @Test(
        "a leaderboard entry's mistakes are named by field",
        arguments: [
            ("type: json\nurl: http://a\nmetrics: [{leaderboard: committers, items: /data, name: /login}]",
             "config/sources/repo.yaml: metrics[0].score: is required"),
            ("type: json\nurl: http://a\nmetrics: [{leaderboard: committers, items: data, name: /login, score: /count}]",
             "config/sources/repo.yaml: metrics[0].items: must be a JSON Pointer: empty, or starting with / (~0 for ~, ~1 for /)"),
            ("type: json\nurl: http://a\nmetrics: [{leaderboard: committers, query: SELECT 1, items: /d, name: /n, score: /s}]",
             "config/sources/repo.yaml: metrics[0].query: unknown key"),
            ("type: json\nurl: http://a\nmetrics: [{leaderboard: stars, items: /d, name: /n, score: /s}]",
             "config/sources/repo.yaml: metrics[0].leaderboard: \"stars\" is not shown by a leaderboard tile of any dashboard"),
        ])
    func mistakes(_ yaml: String, expected: String) {
        #expect(problems(yaml) == [expected])
    }

    @Test("a board is committed again only when it changed")
    func changes() {
        let committed = SourceValues(metrics: ["stars": 7], leaderboards: ["committers": [.init(name: "ada", value: 1)]])
        let same = committed.changed(since: committed)
        #expect(same.isEmpty)
        var next = committed
        next.leaderboards["committers"] = [.init(name: "ada", value: 2)]
        #expect(next.changed(since: committed) == SourceValues(leaderboards: ["committers": [.init(name: "ada", value: 2)]]))
    }
}
