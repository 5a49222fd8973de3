import RollboardTestSupport
import Testing

@testable import RollboardNet

@Suite struct UTF8ValidatorTests {
    static let valid: [[UInt8]] = [
        [],
        Array("Hello-µ@ßöäüàá-UTF-8!!".utf8),
        Array("κόσμε".utf8),
        [0xF0, 0x9F, 0x98, 0x80],  // U+1F600
        [0xEF, 0xBF, 0xBF],  // U+FFFF
        [0xF4, 0x8F, 0xBF, 0xBF],  // U+10FFFF
        [0xED, 0x9F, 0xBF],  // U+D7FF
        [0xEE, 0x80, 0x80],  // U+E000
        [0xC2, 0x80],
        [0xE0, 0xA0, 0x80],
        [0xF0, 0x90, 0x80, 0x80],
    ]

    /// Invalid sequences and the index of the first byte that proves it.
    static let invalid: [([UInt8], Int)] = [
        ([0x80], 0),
        ([0xBF], 0),
        ([0xC0, 0x80], 0),  // overlong
        ([0xC1, 0xBF], 0),  // overlong
        ([0xE0, 0x80, 0x80], 1),  // overlong
        ([0xE0, 0x9F, 0xBF], 1),  // overlong
        ([0xED, 0xA0, 0x80], 1),  // surrogate U+D800
        ([0xED, 0xBF, 0xBF], 1),  // surrogate U+DFFF
        ([0xF0, 0x8F, 0xBF, 0xBF], 1),  // overlong
        ([0xF4, 0x90, 0x80, 0x80], 1),  // U+110000
        ([0xF5, 0x80, 0x80, 0x80], 0),
        ([0xFE], 0),
        ([0xFF], 0),
        ([0xC2, 0x41], 1),
        ([0xE1, 0x80, 0x41], 2),
        (Array("κόσμε".utf8) + [0xED, 0xA0, 0x80] + Array("edited".utf8), 11),
        (Array("abcdefghijklmnop".utf8) + [0xFF], 16),
    ]

    @Test("valid UTF-8 is accepted and ends complete", arguments: valid)
    func acceptsValid(bytes: [UInt8]) {
        var validator = UTF8Validator()
        let accepted = validator.validate(bytes)
        #expect(accepted)
        #expect(validator.isComplete)
    }

    @Test("invalid UTF-8 fails at the first byte that proves it", arguments: invalid)
    func failsFast(bytes: [UInt8], failingIndex: Int) {
        var validator = UTF8Validator()
        let prefixAccepted = validator.validate(bytes[..<failingIndex])
        #expect(prefixAccepted)
        let restAccepted = validator.validate(bytes[failingIndex...])
        #expect(!restAccepted)
    }

    @Test("a scalar split across fragments validates at every split point", arguments: valid)
    func validAcrossSplits(bytes: [UInt8]) {
        for split in 0...bytes.count {
            var validator = UTF8Validator()
            let headAccepted = validator.validate(bytes[..<split])
            #expect(headAccepted)
            let tailAccepted = validator.validate(bytes[split...])
            #expect(tailAccepted)
            #expect(validator.isComplete)
        }
    }

    @Test("a truncated scalar is not complete")
    func truncatedIsIncomplete() {
        var validator = UTF8Validator()
        let accepted = validator.validate([0x61, 0xF0, 0x9F, 0x98])
        #expect(accepted)
        #expect(!validator.isComplete)
    }

    @Test("the validator agrees with the standard library on every two-byte sequence")
    func agreesWithStandardLibrary() {
        for first in 0...255 {
            for second in 0...255 {
                let bytes = [UInt8(first), UInt8(second)]
                var validator = UTF8Validator()
                let ours = validator.validate(bytes) && validator.isComplete
                #expect(ours == (String(validating: bytes, as: UTF8.self) != nil), "\(bytes)")
            }
        }
    }

    @Test("the validator agrees with the standard library on long mixed runs")
    func agreesOnRandomRuns() {
        var generator = SplitMix64(seed: 6455)
        let alphabet: [UInt8] = [
            0x41, 0x7F, 0x80, 0xBF, 0xC2, 0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xA0, 0x9F, 0x90, 0x8F,
        ]
        for _ in 0..<2000 {
            let count = Int.random(in: 0...40, using: &generator)
            let bytes = (0..<count).map { _ in alphabet.randomElement(using: &generator)! }
            var validator = UTF8Validator()
            let ours = validator.validate(bytes) && validator.isComplete
            #expect(ours == (String(validating: bytes, as: UTF8.self) != nil), "\(bytes)")
        }
    }
}
