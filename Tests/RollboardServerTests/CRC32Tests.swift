import Testing

@testable import RollboardConfig
@testable import RollboardStore

@Suite("CRC32")
struct CRC32Tests {
    @Test(
        "checksums match the published check values",
        arguments: [
            ("", UInt32(0)),
            ("123456789", UInt32(0xCBF4_3926)),
            ("The quick brown fox jumps over the lazy dog", UInt32(0x414F_A339)),
        ])
    func checkValues(text: String, expected: UInt32) {
        #expect(CRC32.checksum(Array(text.utf8)) == expected)
    }
}
