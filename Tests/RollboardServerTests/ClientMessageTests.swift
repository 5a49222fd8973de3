import Testing

@testable import RollboardCore
@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardRedisLog
@testable import RollboardHub
@testable import RollboardAPI

@Suite("Client messages")
struct ClientMessageTests {
    @Test(
        "well-formed messages parse to what they ask for",
        arguments: [
            (#"{"type":"fps","value":15}"#, ClientMessage.fps(15)),
            (#"{"type":"pause"}"#, .pause),
            (#"{"type":"resume"}"#, .resume),
            (#"{"type":"carousel","id":"news","action":"hold"}"#, .carousel(tileID: "news", action: .hold, page: nil)),
            (#"{"type":"carousel","id":"news","action":"goto","page":2}"#, .carousel(tileID: "news", action: .goto, page: 2)),
            (#"{"type":"hello-from-the-future"}"#, .ignored),
            (#"{"type":"report","fps":12.5,"paintMs":3.25}"#,
             .report(.init(paintedFPS: 12.5, paintMilliseconds: 3.25))),
            (#"{"type":"report","fps":0}"#, .report(.init(paintedFPS: 0))),
            (#"{"type":"report","paintMs":10000}"#, .report(.init(paintMilliseconds: 10_000))),
            (#"{"type":"report","error":"  SyntaxError: Unexpected token '?' (/js/board.js:46)\n"}"#,
             .report(.init(scriptError: "SyntaxError: Unexpected token '?' (/js/board.js:46)"))),
            (#"{"type":"report","unreadable":"notice"}"#, .report(.init(unreadableTile: "notice"))),
        ]
    )
    func wellFormedMessagesParse(text: String, expected: ClientMessage) throws {
        #expect(try ClientMessage.parse(text).get() == expected)
    }

    @Test(
        "malformed messages are refused with a detail naming the problem",
        arguments: [
            ("not json", "not a JSON object"),
            ("[1,2]", "not a JSON object"),
            (#"{"value":3}"#, "no string \"type\""),
            (#"{"type":"fps","value":0}"#, "from 1 to 60"),
            (#"{"type":"fps","value":61}"#, "from 1 to 60"),
            (#"{"type":"fps","value":12.5}"#, "from 1 to 60"),
            (#"{"type":"fps","value":true}"#, "from 1 to 60"),
            (#"{"type":"fps","value":"15"}"#, "from 1 to 60"),
            (#"{"type":"pause"} trailing"#, "not a JSON object"),
            (#"{"type":"carousel","action":"hold"}"#, "\"id\""),
            (#"{"type":"carousel","id":"news","action":"spin"}"#, "\"action\""),
            (#"{"type":"carousel","id":"news","action":"goto"}"#, "\"page\""),
            (#"{"type":"carousel","id":"news","action":"goto","page":-1}"#, "\"page\""),
            (#"{"type":"report"}"#, "needs \"fps\", \"paintMs\", \"error\" or \"unreadable\""),
            (#"{"type":"report","unreadable":""}"#, "\"unreadable\" must be a tile id"),
            (#"{"type":"report","unreadable":7}"#, "\"unreadable\" must be a tile id"),
            (#"{"type":"report","fps":61}"#, "\"fps\" must be a number from 0 to 60"),
            (#"{"type":"report","fps":-1}"#, "\"fps\" must be a number from 0 to 60"),
            (#"{"type":"report","fps":"12"}"#, "\"fps\" must be a number from 0 to 60"),
            (#"{"type":"report","paintMs":10000.5}"#, "\"paintMs\" must be a number from 0 to 10000"),
            (#"{"type":"report","paintMs":null}"#, "\"paintMs\" must be a number from 0 to 10000"),
            (#"{"type":"report","error":""}"#, "\"error\" must be a non-empty string"),
            (#"{"type":"report","error":"\u0007 "}"#, "\"error\" must be a non-empty string"),
            (#"{"type":"report","error":42}"#, "\"error\" must be a non-empty string"),
        ]
    )
    func malformedMessagesAreRefused(text: String, detailFragment: String) {
        switch ClientMessage.parse(text) {
        case .success(let message): Issue.record("parsed \(message) from \(text)")
        case .failure(let error): #expect(error.detail.contains(detailFragment))
        }
    }

    @Test("a report's error is kept to 300 characters")
    func longErrorsAreCut() throws {
        let text = #"{"type":"report","error":""# + String(repeating: "x", count: 500) + #""}"#
        guard case .report(let report) = try ClientMessage.parse(text).get() else {
            Issue.record("not a report: \(text)")
            return
        }
        #expect(report.scriptError?.count == ClientMessage.Report.errorLimit)
    }
}
