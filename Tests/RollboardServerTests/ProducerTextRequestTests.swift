import RollboardClient
import RollboardNet
import Testing

@testable import RollboardCore
@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardMetrics
@testable import RollboardHub
@testable import RollboardSources
@testable import RollboardAPI

/// A body the slides or text endpoint must refuse, with the status, error and detail it gets.
struct RefusedTextBody: Sendable, CustomTestStringConvertible {
    let body: String
    let status: Int
    let error: String
    let detail: String

    var testDescription: String { "\(body.prefix(70)) → \(status) \(error)" }

    init(_ body: String, _ status: Int, _ error: String, _ detail: String) {
        self.body = body
        self.status = status
        self.error = error
        self.detail = detail
    }

    static let slides: [RefusedTextBody] = [
        .init(#"{}"#, 400, "missing_field", "slides: is required"),
        .init(#"{"slides":{"text":"a"}}"#, 400, "wrong_type", "slides: must be an array, got an object"),
        .init(#"{"slides":[{"text":"a"}],"page":1}"#, 400, "unknown_field", "page: unknown field (allowed: slides)"),
        .init(#"{"slides":[]}"#, 422, "invalid_value", "slides: must hold 1 to 50 slides, got 0"),
        .init(
            #"{"slides":[\#(Array(repeating: #"{"text":"a"}"#, count: 51).joined(separator: ","))]}"#, 422,
            "invalid_value", "slides: must hold 1 to 50 slides, got 51"),
        .init(#"{"slides":["Welcome"]}"#, 400, "wrong_type", "slides[0]: must be an object, got a string"),
        .init(
            #"{"slides":[{"text":"a"},{"txt":"b"}]}"#, 400, "unknown_field",
            "slides[1].txt: unknown field (allowed: text, image, alt, color)"),
        .init(#"{"slides":[{"alt":"x"}]}"#, 400, "missing_field", "slides[0].text or image: is required"),
        .init(
            #"{"slides":[{"text":"a","image":"https://x.test/a.png"}]}"#, 400, "bad_request",
            "slides[0]: give text or image, not both"),
        .init(#"{"slides":[{"text":"a","alt":"b"}]}"#, 400, "bad_request", "slides[0].alt: only allowed with image"),
        .init(#"{"slides":[{"text":7}]}"#, 400, "wrong_type", "slides[0].text: must be a string, got a number"),
        .init(#"{"slides":[{"text":""}]}"#, 422, "invalid_value", "slides[0].text: text is empty"),
        .init(
            #"{"slides":[{"text":"\#(String(repeating: "é", count: 501))"}]}"#, 422, "invalid_value",
            "slides[0].text: text is 501 characters; at most 500"),
        .init(
            #"{"slides":[{"text":"a\#(String(repeating: #"\u0301"#, count: 20_000))"}]}"#, 422, "invalid_value",
            "slides[0].text: text is 40001 bytes; at most 2000"),
        .init(
            #"{"slides":[{"text":"ok"},{"text":"Ring\u0007"}]}"#, 422, "invalid_value",
            "slides[1].text: text holds the control character U+0007; none is allowed (a text may hold newlines, U+000A)"),
        .init(
            #"{"slides":[{"text":" \u200b\u0301 "}]}"#, 422, "invalid_value",
            "slides[0].text: text shows nothing (only white space, zero-width characters or combining marks)"),
        .init(
            #"{"slides":[{"image":"https://x.test/a.png","alt":"\u001b[2J"}]}"#, 422, "invalid_value",
            "slides[0].alt: text holds the control character U+001B; none is allowed (a text may hold newlines, U+000A)"),
        .init(
            #"{"slides":[{"image":"https://x.test/a.png","alt":"\#(String(repeating: "ab\u{308}", count: 700))"}]}"#, 422,
            "invalid_value", "slides[0].alt: text is 2800 bytes; at most 2000"),
        .init(#"{"slides":[{"image":true}]}"#, 400, "wrong_type", "slides[0].image: must be a string, got a boolean"),
        .init(
            #"{"slides":[{"image":"ftp://x.test/a.png"}]}"#, 422, "invalid_value",
            #"slides[0].image: must be an http(s) URL or a data:image URL, got "ftp://x.test/a.png""#),
        .init(
            #"{"slides":[{"image":"javascript:alert(1)"}]}"#, 422, "invalid_value",
            #"slides[0].image: must be an http(s) URL or a data:image URL, got "javascript:alert(1)""#),
        .init(
            #"{"slides":[{"image":"https:///a.png"}]}"#, 422, "invalid_value",
            #"slides[0].image: must be an http(s) URL or a data:image URL, got "https:///a.png""#),
        .init(
            #"{"slides":[{"image":"https://x.test/a b.png"}]}"#, 422, "invalid_value",
            #"slides[0].image: must be an http(s) URL or a data:image URL, got "https://x.test/a b.png""#),
        .init(
            #"{"slides":[{"image":"data:text/html,<b>x</b>"}]}"#, 422, "invalid_value",
            #"slides[0].image: must be an http(s) URL or a data:image URL, got "data:text/html,<b>x</b>""#),
        .init(
            #"{"slides":[{"image":"https://x.test/\#(String(repeating: "a", count: 2040))"}]}"#, 422, "invalid_value",
            "slides[0].image: must be at most 2048 characters, got 2055"),
        .init(
            #"{"slides":[{"image":"https://x.test/a.png","alt":["x"]}]}"#, 400, "wrong_type",
            "slides[0].alt: must be a string, got an array"),
        .init(
            ##"{"slides":[{"text":"a"},{"text":"b"},{"text":"Fire drill at 3","color":"red"}]}"##, 422, "invalid_value",
            #"slides[2].color: must be a colour like #rgb or #rrggbb, got "red""#),
        .init(
            ##"{"slides":[{"text":"a","color":"#12345"}]}"##, 422, "invalid_value",
            ##"slides[0].color: must be a colour like #rgb or #rrggbb, got "#12345""##),
        .init(
            #"{"slides":[{"text":"a","color":255}]}"#, 400, "wrong_type",
            "slides[0].color: must be a colour like #rgb or #rrggbb, got a number"),
    ]

    static let texts: [RefusedTextBody] = [
        .init(#"{}"#, 400, "missing_field", "text: is required"),
        .init(##"{"color":"#fff"}"##, 400, "missing_field", "text: is required"),
        .init(#"{"text":null}"#, 400, "wrong_type", "text: must be a string, got null"),
        .init(#"{"text":["a"]}"#, 400, "wrong_type", "text: must be a string, got an array"),
        .init(#"{"text":"a","colour":"red"}"#, 400, "unknown_field", "colour: unknown field (allowed: text, color)"),
        .init(
            #"{"text":"\#(String(repeating: "x", count: 501))"}"#, 422, "invalid_value",
            "text: text is 501 characters; at most 500"),
        .init(
            #"{"text":"a\#(String(repeating: #"\u0301"#, count: 15_000))"}"#, 422, "invalid_value",
            "text: text is 30001 bytes; at most 2000"),
        .init(
            #"{"text":"Deploy\u0000freeze"}"#, 422, "invalid_value",
            "text: text holds the control character U+0000; none is allowed (a text may hold newlines, U+000A)"),
        .init(
            #"{"text":"Deploy\u0085freeze"}"#, 422, "invalid_value",
            "text: text holds the control character U+0085; none is allowed (a text may hold newlines, U+000A)"),
        .init(
            #"{"text":"\u2060\u00a0\u20dd"}"#, 422, "invalid_value",
            "text: text shows nothing (only white space, zero-width characters or combining marks)"),
        .init(
            ##"{"text":"a","color":"#ggg"}"##, 422, "invalid_value",
            ##"color: must be a colour like #rgb or #rrggbb, got "#ggg""##),
    ]
}

@Suite("ProducerTextRequest")
struct ProducerTextRequestTests {
    private func parse(_ body: String) throws -> JSONValue {
        try JSONParser.parse(Array(body.utf8))
    }

    /// Expects `read` to refuse `refused.body` with the status, error and detail `refused` names.
    private func expectRefused(_ refused: RefusedTextBody, by read: (JSONValue) throws -> Void) throws {
        let body = try parse(refused.body)
        let error = #expect(throws: APIError.self) { try read(body) }
        #expect(error?.status.code == refused.status)
        #expect(error?.code == refused.error)
        #expect(error?.detail == refused.detail)
    }

    @Test("a bad slides body is refused with the status, error and field path it deserves", arguments: RefusedTextBody.slides)
    func refusedSlides(_ refused: RefusedTextBody) throws {
        try expectRefused(refused) { _ = try ProducerTextRequest.slides($0) }
    }

    @Test("a bad text body is refused with the status, error and field it deserves", arguments: RefusedTextBody.texts)
    func refusedText(_ refused: RefusedTextBody) throws {
        try expectRefused(refused) { _ = try ProducerTextRequest.text($0) }
    }

    @Test("slides of every kind are read in order, with their colours and alt texts; a null or empty alt is none")
    func acceptedSlides() throws {
        let body = try parse(
            ##"""
            {"slides":[{"text":"Welcome, visitors"},{"image":"https://x.test/a.png","alt":"The lobby"},
            {"text":"Fire drill at 3","color":"#c0392b"},{"image":"HTTP://x.test:8080/b?c=d#e","alt":"","color":"#FFF"},
            {"image":"data:image/svg+xml;base64,PHN2Zz4=","alt":null}]}
            """##)
        #expect(try ProducerTextRequest.slides(body) == [
            .text("Welcome, visitors", color: nil),
            .image("https://x.test/a.png", alt: "The lobby", color: nil),
            .text("Fire drill at 3", color: "#c0392b"),
            .image("HTTP://x.test:8080/b?c=d#e", alt: nil, color: "#FFF"),
            .image("data:image/svg+xml;base64,PHN2Zz4=", alt: nil, color: nil),
        ])
        let fifty = try parse(#"{"slides":[\#(Array(repeating: #"{"text":"a"}"#, count: 50).joined(separator: ","))]}"#)
        #expect(try ProducerTextRequest.slides(fifty).count == 50)
    }

    @Test("a text of 0 to 500 characters is accepted, with an optional colour")
    func acceptedTexts() throws {
        #expect(try ProducerTextRequest.text(parse(#"{"text":""}"#)) == ("", nil))
        #expect(try ProducerTextRequest.text(parse(##"{"text":"Deploy freeze","color":"#e67e22"}"##)) == ("Deploy freeze", "#e67e22"))
        #expect(try ProducerTextRequest.text(parse(#"{"text":"a","color":null}"#)) == ("a", nil))
        #expect(try ProducerTextRequest.text(parse(#"{"text":"Deploy freeze\nuntil 3"}"#)) == ("Deploy freeze\nuntil 3", nil))
        #expect(try ProducerTextRequest.text(parse(#"{"text":"Crème brûlée 👨‍👩‍👧 e\u0301"}"#)) == ("Crème brûlée 👨‍👩‍👧 é", nil))
        let longest = String(repeating: "👍", count: 500)
        #expect(try ProducerTextRequest.text(parse(#"{"text":"\#(longest)"}"#)).text == longest)
    }
}
