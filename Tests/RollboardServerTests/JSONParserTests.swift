import Testing

@testable import RollboardCore
@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardMetrics
@testable import RollboardAccess
@testable import RollboardHub
@testable import RollboardAPI

@Suite("JSONParser")
struct JSONParserTests {
    @Test(
        "valid documents parse and serialize back compactly",
        arguments: [
            (#"{"a": [1, -2.5, 3e2, true, false, null, "x"]}"#, #"{"a":[1,-2.5,3e2,true,false,null,"x"]}"#),
            (#" "\u00e9\ud83d\ude00\n" "#, "\"é😀\\n\""),
            ("[]", "[]"),
            ("{}", "{}"),
            ("0", "0"),
        ])
    func valid(text: String, serialized: String) throws {
        #expect(try JSONParser.parse(Array(text.utf8)).serialized == serialized)
    }

    @Test(
        "invalid documents are refused with the reason and byte offset",
        arguments: [
            ("NaN", "unexpected character 'N', expected a value at byte 0"),
            ("Infinity", "unexpected character 'I', expected a value at byte 0"),
            ("-Infinity", "expected a digit at byte 1"),
            ("01", "a number must not start with 0 at byte 0"),
            ("1.", "expected a digit after '.' at byte 2"),
            ("[1,]", "unexpected character ']', expected a value at byte 3"),
            (#"{"a":1,}"#, "expected a string key at byte 7"),
            (#"{"a":1 "b":2}"#, "expected ',' or '}' in an object at byte 7"),
            (#"{"a":1,"a":2}"#, #"duplicate key "a" at byte 7"#),
            ("\"a\u{1}\"", "a control character in a string must be escaped at byte 2"),
            (#""\ud800""#, "a high surrogate must be followed by a low surrogate at byte 7"),
            ("{} x", "unexpected data after the JSON value at byte 3"),
            ("", "unexpected end of input, expected a value at byte 0"),
            (String(repeating: "[", count: 40), "nested more than 32 levels deep at byte 32"),
        ])
    func invalid(text: String, message: String) {
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(Array(text.utf8)) }
        do {
            _ = try JSONParser.parse(Array(text.utf8))
        } catch {
            #expect(error.description == message)
        }
    }

    @Test(
        "numbers keep their literal so out-of-range values are seen",
        arguments: [
            ("1e400", Double.infinity),
            ("-1e400", -Double.infinity),
            ("9007199254740993", 9_007_199_254_740_992),
            ("1234.5", 1234.5),
        ])
    func numbers(literal: String, value: Double) throws {
        guard case .number(let number) = try JSONParser.parse(Array(literal.utf8)) else {
            Issue.record("not a number")
            return
        }
        #expect(number.literal == literal)
        #expect(number.double == value)
    }

    @Test(
        "doubles are written as short JSON numbers",
        arguments: [
            (1234.0, "1234"), (-0.5, "-0.5"), (0.1, "0.1"), (1e20, "1e+20"), (-0.0, "0"), (999999.99, "999999.99"),
        ])
    func writing(value: Double, text: String) {
        #expect(JSONNumber(value).literal == text)
    }

    /// An attacker's object of 200,000 distinct keys (about 2 MiB): a pairwise duplicate check would make about
    /// 2 × 10^10 comparisons and run for many minutes; the hash-set check finishes well inside the limit.
    @Test("an object with hundreds of thousands of distinct keys parses in linear time", .timeLimit(.minutes(1)))
    func manyKeys() throws {
        let count = 200_000
        var text = "{"
        for index in 0..<count { text += index == 0 ? "\"k\(index)\":0" : ",\"k\(index)\":0" }
        text += "}"
        guard case .object(let members) = try JSONParser.parse(Array(text.utf8)) else {
            Issue.record("not an object")
            return
        }
        #expect(members.count == count)
        #expect(members.last?.key == "k\(count - 1)")
    }

    @Test("a duplicate key far into a large object is still found")
    func lateDuplicate() {
        var text = "{"
        for index in 0..<50_000 { text += "\"k\(index)\":0," }
        text += "\"k17\":1}"
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(Array(text.utf8)) }
    }
}
