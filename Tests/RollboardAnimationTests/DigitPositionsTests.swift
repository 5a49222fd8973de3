import Testing
import RollboardAnimation

@Suite("DigitPositions")
struct DigitPositionsTests {
    @Test("positions read back in order, most significant first")
    func readsBack() {
        let digits: DigitPositions = [5, 2.01, 1.4]
        #expect(Array(digits) == [5, 2.01, 1.4])
        #expect(digits.count == 3)
        #expect(digits.first == 5)
    }

    @Test("equal positions compare and hash equal, different counts do not")
    func equality() {
        let digits: DigitPositions = [1, 2, 3]
        #expect(digits == DigitPositions([1, 2, 3]))
        #expect(digits.hashValue == DigitPositions([1, 2, 3]).hashValue)
        #expect(digits != [1, 2])
        #expect(digits != [1, 2, 4])
    }

    @Test("fifteen columns fit")
    func capacity() {
        let digits = DigitPositions((0..<15).map(Double.init))
        #expect(digits.count == DigitPositions.capacity)
        #expect(digits.last == 14)
    }
}
