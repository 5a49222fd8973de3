import Testing

@testable import RollboardCore
@testable import RollboardConfig
@testable import RollboardStore

@Suite("ConstantTime")
struct ConstantTimeTests {
    @Test(
        "equal bytes compare equal and any difference compares unequal",
        arguments: [
            ("secret-token", "secret-token", true),
            ("secret-token", "secret-tokeN", false),
            ("secret-token", "Secret-token", false),
            ("secret-token", "secret-token2", false),
            ("secret-token", "secret", false),
            ("", "", true),
            ("", "a", false),
            ("a\u{0}", "a", false),
        ])
    func equality(a: String, b: String, expected: Bool) {
        #expect(ConstantTime.equals(Array(a.utf8), Array(b.utf8)) == expected)
        #expect(ConstantTime.equals(Array(b.utf8), Array(a.utf8)) == expected)
    }
}
