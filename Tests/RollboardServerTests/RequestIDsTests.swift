import Testing

@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardAPI

@Suite("RequestIDs")
struct RequestIDsTests {
    @Test("a sane id from the caller is kept; anything else gets one of this node's", arguments: [
        ("abc-123_X.y", true), ("", false), (String(repeating: "a", count: 65), false), ("has space", false),
        ("semi;colon", false), ("ünï", false), (String(repeating: "b", count: 64), true),
    ])
    func given(id: String, kept: Bool) {
        let ids = RequestIDs()
        #expect((ids.id(given: id) == id) == kept)
    }

    @Test("ids made up by a node share its prefix and never repeat")
    func madeUp() {
        let ids = RequestIDs()
        let made = (0..<100).map { _ in ids.id(given: nil) }
        #expect(Set(made).count == 100)
        let prefixes = Set(made.map { $0.split(separator: "-").first.map(String.init) ?? "" })
        #expect(prefixes.count == 1)
        #expect(prefixes.first?.count == 8)
    }
}
