import Testing

@testable import RollboardCore
@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardMetrics
@testable import RollboardHub
@testable import RollboardAPI

/// A text of `count` characters, each `a` under a stack of combining marks: one character reads as many bytes.
private func stacked(_ count: Int, marks: Int) -> String {
    String(repeating: "a" + String(repeating: "\u{301}", count: marks), count: count)
}

@Suite("Display text")
struct DisplayTextTests {
    @Test("a name or a text is bounded in characters and in bytes, holds no control character and shows something",
          arguments: [
            (DisplayText.name, "Alice", nil as String?),
            (.name, "Zoë 👨‍👩‍👧 山田", nil),
            (.name, String(repeating: "山", count: 100), nil),
            (.name, String(repeating: "👍", count: 100), nil),
            (.name, stacked(1, marks: 20_000), "name is 40001 bytes; at most 400"),
            (.name, stacked(1, marks: 199), nil),
            (.name, String(repeating: "x", count: 101), "name is 101 characters; at most 100"),
            (.name, "", "name is empty"),
            (.name, "Bob\u{7}", "name holds the control character U+0007; none is allowed"),
            (.name, "Bob\u{1B}[2J", "name holds the control character U+001B; none is allowed"),
            (.name, "Bob\u{9B}", "name holds the control character U+009B; none is allowed"),
            (.name, "A\nB", "name holds the control character U+000A; none is allowed"),
            (.name, " \u{200B}\u{FEFF}", "name shows nothing (only white space, zero-width characters or combining marks)"),
            (.name, "\u{301}\u{302}", "name shows nothing (only white space, zero-width characters or combining marks)"),
            (.name, "\u{3000}\u{2028}", "name shows nothing (only white space, zero-width characters or combining marks)"),
            (.text, "Fire drill\nat 3", nil),
            (.text, String(repeating: "👍", count: 500), nil),
            (.text, stacked(500, marks: 29), "text is 29500 bytes; at most 2000"),
            (.text, String(repeating: "é", count: 501), "text is 501 characters; at most 500"),
            (.text, "Tab\there", "text holds the control character U+0009; none is allowed (a text may hold newlines, U+000A)"),
            (.text, "\u{0}", "text holds the control character U+0000; none is allowed (a text may hold newlines, U+000A)"),
            (.text, "\n\n", "text shows nothing (only white space, zero-width characters or combining marks)"),
          ])
    func problems(kind: DisplayText, string: String, problem: String?) {
        #expect(kind.problem(with: string) == problem)
    }

    @Test("an empty text is fine where it clears the tile")
    func emptyText() {
        #expect(DisplayText.text.problem(with: "", allowsEmpty: true) == nil)
    }

    static func problems(_ dashboard: String) -> [String] {
        do {
            _ = try RollboardConfiguration.parse(serverYAML: nil, dashboards: [("d/demo.yaml", dashboard)])
            return []
        } catch {
            return error.problems
        }
    }

    @Test("titles, wheel labels, configured slides and texts follow the same rules, refused naming file, tile and field",
          arguments: [
            ("title: \"\(stacked(1, marks: 300))\"\ntiles: [{id: t, type: text}]",
             "d/demo.yaml: title: name is 601 bytes; at most 400"),
            ("tiles: [{id: t, type: text, title: \"Ops\\a\"}]",
             "d/demo.yaml: tile \"t\": title: name holds the control character U+0007; none is allowed"),
            ("tiles: [{id: t, type: text, title: \"\\u200B\"}]",
             "d/demo.yaml: tile \"t\": title: name shows nothing (only white space, zero-width characters or combining marks)"),
            ("tiles: [{id: w, type: wheel, contents: [A, \"B\\e[2J\"]}]",
             "d/demo.yaml: tile \"w\": contents[1]: name holds the control character U+001B; none is allowed"),
            ("tiles: [{id: c, type: carousel, slides: [{text: \"\(stacked(100, marks: 20))\"}]}]",
             "d/demo.yaml: tile \"c\": slides[0].text: text is 4100 bytes; at most 2000"),
            ("tiles: [{id: t, type: text, text: \"Hello\\0\"}]",
             "d/demo.yaml: tile \"t\": text: text holds the control character U+0000; none is allowed (a text may hold newlines, U+000A)"),
          ])
    func configured(yaml: String, problem: String) {
        #expect(Self.problems("id: demo\n\(yaml)\n") == [problem])
    }

    @Test("a screen's name follows the same rule: a name that shows nothing is no name")
    func screenNames() {
        #expect(ScreenRegistry.cleanName("\u{301}\u{302}") == nil)
        #expect(ScreenRegistry.cleanName(" \u{200B}Lobby\u{7} ") == "Lobby")
    }
}
