import Testing

@testable import RollboardServer

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
        ]
    )
    func malformedMessagesAreRefused(text: String, detailFragment: String) {
        switch ClientMessage.parse(text) {
        case .success(let message): Issue.record("parsed \(message) from \(text)")
        case .failure(let error): #expect(error.detail.contains(detailFragment))
        }
    }
}
