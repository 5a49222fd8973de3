import Testing
import RollboardAnimation

@Suite("Wheel")
struct WheelTests {
    let wheel = try! Wheel(contents: ["A", "B", "C", "D"], duration: 0.5)

    @Test("progress picks the top and bottom labels and the offset between them", arguments: [
        (0.4, "B", "C", 0.6),     // the article's example: 4 × 0.4 = 1.6
        (0.0, "A", "B", 0),
        (0.7, "C", "D", 0.8),
        (0.99, "D", "D", 0),      // 3.96 is clamped to the last index
        (1.0, "D", "D", 0),
        (1.5, "D", "D", 0),       // progress is clamped to [0, 1]
        (-0.2, "A", "B", 0),
    ])
    func labels(progress: Double, top: String, bottom: String, offset: Double) throws {
        let state = try wheel.settle(wheel.position(forProgress: progress), after: nil)
        #expect(wheel.contents[state.top] == top)
        #expect(wheel.contents[state.bottom] == bottom)
        #expect(isClose(state.offset, offset))
    }

    @Test("the top label squeezes and rises while the bottom one grows in")
    func transforms() throws {
        let state = try wheel.settle(1.6, after: nil)
        #expect(isClose(state.topScale, 0.4))
        #expect(isClose(state.topTranslation(height: 20), -6))
        #expect(isClose(state.bottomScale, 0.6))
        #expect(isClose(state.bottomTranslation(height: 20), 4))
    }

    @Test("an index sets the position directly")
    func index() throws {
        #expect(try wheel.position(forIndex: 2) == 2)
        #expect(throws: AnimationError.outOfRange) { try wheel.position(forIndex: 4) }
    }

    @Test("moves ease out over the duration")
    func easesOut() throws {
        let start = try wheel.settle(0, after: nil)
        let move = wheel.animation(from: start, to: try wheel.settle(1.6, after: start), interval: nil)
        #expect(move.duration == 0.5)
        #expect(isClose(move.state(at: 0.25).position, 1.0954290998839369))  // 1.6 × easeOut(½)
        #expect(move.state(at: 0.5).position == 1.6)
    }

    @Test("wheels and positions it cannot show are refused")
    func refuses() {
        #expect(throws: AnimationError.invalidConfiguration) { try Wheel(contents: []) }
        #expect(throws: AnimationError.notFinite) { try wheel.position(forProgress: .nan) }
        #expect(throws: AnimationError.outOfRange) { try wheel.settle(3.5, after: nil) }
    }
}
