import Testing

@testable import RollboardNet

@Suite struct InflaterTests {
    static func inflate(_ parts: [[UInt8]], windowBits: Int = 15, limit: Int = 1 << 20, using inflater: Inflater? = nil)
        throws -> [UInt8]
    {
        let inflater = try inflater ?? Inflater(windowBits: windowBits)
        var output: [UInt8] = []
        for part in parts { try inflater.inflate(part, into: &output, limit: limit) }
        try inflater.finishMessage(into: &output, limit: limit)
        return output
    }

    /// RFC 7692 section 7.2.3: payloads that all mean "Hello".
    static let rfcExamples: [(String, [[UInt8]])] = [
        ("one compressed block", [[0xF2, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00]]),
        ("one block in two fragments", [[0xF2, 0x48, 0xCD], [0xC9, 0xC9, 0x07, 0x00]]),
        ("no compression", [[0x00, 0x05, 0x00, 0xFA, 0xFF, 0x48, 0x65, 0x6C, 0x6C, 0x6F, 0x00]]),
        ("BFINAL set", [[0xF3, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00, 0x00]]),
        ("two blocks", [[0xF2, 0x48, 0x05, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xCA, 0xC9, 0xC9, 0x07, 0x00]]),
        ("byte by byte", [0xF2, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00].map { [$0] }),
    ]

    @Test("RFC 7692's example payloads inflate to Hello", arguments: rfcExamples)
    func rfcExamplesInflate(name: String, parts: [[UInt8]]) throws {
        #expect(try Self.inflate(parts) == Array("Hello".utf8), "\(name)")
    }

    @Test("with context takeover the second Hello refers back to the first (RFC 7692 section 7.2.3.2)")
    func sharedWindow() throws {
        let inflater = try Inflater(windowBits: 15)
        #expect(try Self.inflate([[0xF2, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00]], using: inflater) == Array("Hello".utf8))
        #expect(try Self.inflate([[0xF2, 0x00, 0x11, 0x00, 0x00]], using: inflater) == Array("Hello".utf8))
    }

    @Test("a deflate bomb stops at the limit instead of inflating it all")
    func bombIsCapped() throws {
        let deflater = try Deflater(windowBits: 15, memoryLevel: 8, level: 9)
        let bomb = try deflater.compress([UInt8](repeating: 0, count: 10 << 20))
        #expect(bomb.count < 20_000)
        let inflater = try Inflater(windowBits: 15)
        var output: [UInt8] = []
        #expect(throws: ZlibError.outputLimitExceeded) { try inflater.inflate(bomb, into: &output, limit: 1 << 20) }
        #expect(output.count <= (1 << 20) + 1)
    }

    @Test("output exactly at the limit is accepted")
    func exactLimit() throws {
        let deflater = try Deflater(windowBits: 15, memoryLevel: 8, level: 6)
        let compressed = try deflater.compress([UInt8](repeating: 7, count: 4096))
        #expect(try Self.inflate([compressed], limit: 4096).count == 4096)
        #expect(throws: ZlibError.outputLimitExceeded) { try Self.inflate([compressed], limit: 4095) }
    }

    @Test("corrupt data is reported as corrupt")
    func corruptData() {
        #expect(throws: ZlibError.corruptData) { try Self.inflate([[0xFF, 0xFF, 0xFF, 0xFF]]) }
    }
}
