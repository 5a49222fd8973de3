import Testing

/// A client message the server must refuse.
struct BadClientMessage: Sendable, CustomTestStringConvertible {
    enum Payload: Sendable {
        case text(String)
        case binary([UInt8])
        /// The same message, many times as fast as the socket takes them.
        case repeated(String, times: Int)
    }

    let name: String
    let payload: Payload
    let closeCode: UInt16

    var testDescription: String { "\(name) → \(closeCode)" }

    static let all = [
        BadClientMessage(name: "not JSON", payload: .text("pause please"), closeCode: 1007),
        BadClientMessage(name: "a JSON array", payload: .text(#"["pause"]"#), closeCode: 1007),
        BadClientMessage(name: "no type", payload: .text(#"{"value":15}"#), closeCode: 1007),
        BadClientMessage(name: "fps out of range", payload: .text(#"{"type":"fps","value":0}"#), closeCode: 1007),
        BadClientMessage(name: "carousel without action", payload: .text(#"{"type":"carousel","id":"news"}"#), closeCode: 1007),
        BadClientMessage(name: "a binary message", payload: .binary([1, 2, 3]), closeCode: 1003),
        BadClientMessage(
            name: "a message over the 4 KiB screen limit",
            payload: .text(#"{"type":"note","pad":""# + String(repeating: "x", count: 4_100) + #""}"#), closeCode: 1009),
        BadClientMessage(
            name: "an object of thousands of keys", payload: .text(manyKeys(20_000)), closeCode: 1009),
        BadClientMessage(name: "a flood of valid messages", payload: .repeated(#"{"type":"pause"}"#, times: 500), closeCode: 1008),
    ]

    /// `{"k0":0,"k1":0,…}` with `count` keys.
    private static func manyKeys(_ count: Int) -> String {
        "{" + (0..<count).map { "\"k\($0)\":0" }.joined(separator: ",") + "}"
    }
}
