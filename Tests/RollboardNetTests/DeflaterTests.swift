import RollboardTestSupport
import Testing

@testable import RollboardNet

@Suite struct DeflaterTests {
    @Test("Hello compresses to RFC 7692's example bytes, tail stripped")
    func helloMatchesRFC() throws {
        let deflater = try Deflater(windowBits: 15, memoryLevel: 8, level: 6)
        #expect(try deflater.compress(Array("Hello".utf8)) == [0xF2, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00])
    }

    @Test("every message is compressed with a fresh context")
    func noContextTakeover() throws {
        let deflater = try Deflater(windowBits: 15, memoryLevel: 8, level: 6)
        let first = try deflater.compress(Array("Hello".utf8))
        let second = try deflater.compress(Array("Hello".utf8))
        #expect(first == second)
    }

    @Test("an empty message compresses to a single zero byte")
    func emptyMessage() throws {
        let deflater = try Deflater(windowBits: 15, memoryLevel: 8, level: 6)
        #expect(try deflater.compress([]) == [0x00])
    }

    @Test("window bits 8 compresses with zlib's 9, and invalid parameters are refused")
    func windowBits() throws {
        #expect(try Deflater(windowBits: 8, memoryLevel: 1, level: 1).windowBits == 9)
        #expect(throws: ZlibError.invalidParameters) { try Deflater(windowBits: 16, memoryLevel: 8, level: 6) }
        #expect(throws: ZlibError.invalidParameters) { try Deflater(windowBits: 15, memoryLevel: 0, level: 6) }
    }

    @Test("random data round-trips through deflater and inflater", arguments: [(9, 1), (12, 5), (15, 8)])
    func roundTrip(windowBits: Int, memoryLevel: Int) throws {
        var generator = SplitMix64(seed: 7692)
        let deflater = try Deflater(windowBits: windowBits, memoryLevel: memoryLevel, level: 6)
        let inflater = try Inflater(windowBits: windowBits)
        for _ in 0..<20 {
            let count = Int.random(in: 0...40_000, using: &generator)
            // Mix random and repetitive runs so both literal and match paths are exercised.
            let input = (0..<count).map { index in
                index % 1000 < 500 ? UInt8.random(in: 0...255, using: &generator) : UInt8(index % 7)
            }
            let compressed = try deflater.compress(input)
            var output: [UInt8] = []
            try inflater.inflate(compressed, into: &output, limit: 1 << 20)
            try inflater.finishMessage(into: &output, limit: 1 << 20)
            #expect(output == input)
        }
    }

    @Test("an 8-bit window peer can inflate what the 9-bit zlib window produced")
    func eightBitPeer() throws {
        var generator = SplitMix64(seed: 8)
        let deflater = try Deflater(windowBits: 8, memoryLevel: 8, level: 9)
        let inflater = try Inflater(windowBits: 8)
        let words = ["alpha", "beta", "gamma", "delta", "epsilon"]
        let text = (0..<5000).map { _ in words.randomElement(using: &generator)! }.joined(separator: " ")
        var output: [UInt8] = []
        try inflater.inflate(try deflater.compress(Array(text.utf8)), into: &output, limit: 1 << 20)
        try inflater.finishMessage(into: &output, limit: 1 << 20)
        #expect(output == Array(text.utf8))
    }
}
