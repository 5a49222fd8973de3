import Foundation
import Logging
import RollboardClient
import RollboardNet
import Testing

@testable import RollboardCore
@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardRedisLog
@testable import RollboardAccess
@testable import RollboardHub
@testable import RollboardAPI
@testable import RollboardServer

private let token = "producer-token-0123456789"

/// An API over a fresh journal whose dashboard has a leaderboard, with at most three entries a board.
private final class LeaderboardFixture: Sendable {
    let folder = TemporaryDirectory()
    let store: MetricStore
    let api: RollboardAPI

    init() throws {
        let dashboard = """
            id: demo
            tiles:
              - {id: sales, type: leaderboard, size: 2}
              - {id: fine, type: leaderboard, format: "%.6f"}
              - {id: orders, type: counter}
            """
        let configuration = try RollboardConfiguration.parse(
            serverYAML: "limits: {maxLeaderboardEntries: 3}", dashboards: [("config/dashboards/demo.yaml", dashboard)])
        store = try MetricStore(directory: folder.path, logger: Logger(label: "test"), clock: { 1_700_000_000.25 })
        let tokens = [ProducerToken(token: token)]
        api = RollboardAPI(
            configurations: ConfigurationStore(configuration, readerTokens: [token], logger: Logger(label: "test")),
            tokens: tokens, store: store, logger: Logger(label: "test"))
    }

    deinit {
        store.close()
        folder.remove()
    }

    func send(_ method: String, _ target: String, _ body: String? = nil) async -> HTTPResponse {
        var headers: HTTPHeaders = [:]
        headers.add(name: "Authorization", value: "Bearer \(token)")
        if body != nil { headers.add(name: "Content-Type", value: "application/json") }
        let request = HTTPRequest(method: method, target: target, headers: headers, body: Array((body ?? "").utf8))
        return await withCheckedContinuation { continuation in
            api.handle(request) { continuation.resume(returning: $0) }
        }
    }
}

@Suite("Leaderboard API")
struct LeaderboardAPITests {
    @Test("a board is replaced, then incremented (missing names start at 0), and read back best first, ties by name")
    func replaceAndIncrement() async throws {
        let fixture = try LeaderboardFixture()
        let unset = await fixture.send("GET", "/api/v1/leaderboards/sales")
        #expect(unset.text == #"{"id":"sales","entries":null,"seq":null,"updatedAt":null}"#)

        let replaced = await fixture.send("POST", "/api/v1/leaderboards/sales", #"{"entries":{"Bob":9,"Alice":12}}"#)
        #expect(replaced.status == .accepted)
        #expect(replaced.text == #"{"id":"sales","entries":{"Alice":12,"Bob":9},"seq":1}"#)

        let incremented = await fixture.send(
            "POST", "/api/v1/leaderboards/sales", #"{"increment":{"Bob":3,"Carol":12}}"#)
        #expect(incremented.status == .accepted)
        #expect(incremented.text == #"{"id":"sales","entries":{"Alice":12,"Bob":12,"Carol":12},"seq":2}"#)

        let read = await fixture.send("GET", "/api/v1/leaderboards/sales")
        #expect(
            read.text
                == #"{"id":"sales","entries":{"Alice":12,"Bob":12,"Carol":12},"seq":2,"updatedAt":"2023-11-14T22:13:20.250Z"}"#)
    }

    static let longName = String(repeating: "x", count: DisplayText.Defaults.nameCharacters + 1)

    static let refusals: [(body: String, status: Int, detail: String)] = [
        (#"{"entries":{"Alice":1e999}}"#, 422, "entries.Alice: 1e999 is not a finite number of at most 1e15"),
        (#"{"increment":{"Alice":"3"}}"#, 400, "increment.Alice: must be a number, got a string"),
        (#"{"entries":{"":1}}"#, 422, #"entries[""]: name is empty"#),
        (#"{"entries":{" ":1}}"#, 422, "entries[\" \"]: name shows nothing (only white space, zero-width characters or combining marks)"),
        ("{\"entries\":{\"\(longName)\":1}}", 422, #"entries["xxxxxxxxxxxx…"]: name is 101 characters; at most 100"#),
        ("{\"entries\":{\"a\(String(repeating: "\u{301}", count: 20_000))\":1}}", 422,
         "entries[\"a\(String(repeating: "\u{301}", count: 11))…\"]: name is 40001 bytes; at most 400"),
        ("{\"increment\":{\"Bob\\u001b[2J\":1}}", 422,
         #"increment["Bob\u001b[2J"]: name holds the control character U+001B; none is allowed"#),
        ("{\"entries\":{\"A\\nB\":1}}", 422, #"entries["A\nB"]: name holds the control character U+000A; none is allowed"#),
        ("{\"entries\":{\"\\u0000\":1}}", 422, #"entries["\u0000"]: name holds the control character U+0000; none is allowed"#),
        ("{\"entries\":{\"\\u200b\\u200d\\u0301\":1}}", 422,
         "entries[\"\u{200B}\u{200D}\u{301}\"]: name shows nothing (only white space, zero-width characters or combining marks)"),
        (#"{"entries":{"A":1,"B":2,"C":3,"D":4}}"#, 422,
         "entries: 4 entries are more than the 3 a leaderboard holds (limits.maxLeaderboardEntries)"),
        (#"{"increment":{"C":1,"D":1}}"#, 422,
         "increment: the board would hold 4 entries, more than the 3 a leaderboard holds (limits.maxLeaderboardEntries)"),
        (#"{"entries":{"A":1},"increment":{"A":1}}"#, 400, "increment: give entries or increment, not both"),
        (#"{}"#, 400, "entries: is required"),
        (#"{"entries":[1,2]}"#, 400, "entries: must be an object of names and numbers, got an array"),
        (#"{"entries":{"A":1},"colour":"red"}"#, 400, "colour: unknown field (allowed: entries, increment)"),
    ]

    @Test("bad input is refused with a 4xx naming the field, and nothing is stored", arguments: refusals)
    func refused(body: String, status: Int, detail: String) async throws {
        let fixture = try LeaderboardFixture()
        _ = await fixture.send("POST", "/api/v1/leaderboards/sales", #"{"entries":{"A":1,"B":2}}"#)
        let response = await fixture.send("POST", "/api/v1/leaderboards/sales", body)
        #expect(response.status.code == status, "\(response.text)")
        #expect(response.detail == detail)
        #expect(fixture.store.lastSeq == 1, "nothing was stored")
        #expect(fixture.store.leaderboard("sales")?.entries.count == 2)
    }

    @Test("a score or a total the tile cannot write, or beyond ±1e15, is refused naming the entry, nothing stored")
    func tooLarge() async throws {
        let fixture = try LeaderboardFixture()
        let wide = await fixture.send("POST", "/api/v1/leaderboards/fine", #"{"entries":{"A":1e10}}"#)
        #expect(wide.status.code == 422)
        #expect(wide.detail?.hasPrefix(#"entries.A: 10000000000 is too large for tile "fine" of dashboard "demo": "#) == true,
                "\(wide.text)")
        _ = await fixture.send("POST", "/api/v1/leaderboards/fine", #"{"entries":{"A":5000000000}}"#)
        let total = await fixture.send("POST", "/api/v1/leaderboards/fine", #"{"increment":{"B":1,"A":5e9}}"#)
        #expect(total.status.code == 422)
        #expect(total.detail?.hasPrefix(#"increment.A: the total: 10000000000 is too large for tile "fine""#) == true,
                "\(total.text)")
        _ = await fixture.send("POST", "/api/v1/leaderboards/sales", #"{"entries":{"A":1e15}}"#)
        let beyond = await fixture.send("POST", "/api/v1/leaderboards/sales", #"{"increment":{"A":1}}"#)
        #expect(beyond.detail == "increment.A: the total, 1000000000000001, would be beyond ±1e15", "\(beyond.text)")
        #expect(fixture.store.lastSeq == 2, "only the two boards were stored")
        #expect(fixture.store.leaderboard("fine")?.entries.map(\.name) == ["A"])
    }

    @Test("a leaderboard is written only at its own path, and an id no leaderboard shows is refused")
    func kinds() async throws {
        let fixture = try LeaderboardFixture()
        let metric = await fixture.send("POST", "/api/v1/leaderboards/orders", #"{"entries":{"A":1}}"#)
        #expect(metric.status.code == 404)
        #expect(metric.detail == #""orders" is a metric; use /api/v1/metrics/orders"#)
        let board = await fixture.send("POST", "/api/v1/metrics/sales", #"{"value":1}"#)
        #expect(board.status.code == 404)
        #expect(board.detail == #""sales" is a leaderboard; use /api/v1/leaderboards/sales"#)
        let unknown = await fixture.send("POST", "/api/v1/leaderboards/nobody", #"{"entries":{"A":1}}"#)
        #expect(unknown.detail == #"unknown leaderboard "nobody" (no tile shows it)"#)
        #expect(fixture.store.lastSeq == 0)
    }
}
