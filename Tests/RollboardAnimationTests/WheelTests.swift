import Testing
import RollboardAnimation

@Suite("Wheel")
struct WheelTests {
    let wheel = try! Wheel(contents: ["A", "B", "C", "D"], duration: 0.5)

    @Test("progress picks the label whose band holds it, and the wheel rests on it alone", arguments: [
        (0.4, "B"),     // the article's example: 4 × 0.4 = 1.6, its top label B
        (0.0, "A"),
        (0.7, "C"),
        (0.99, "D"),    // 3.96
        (1.0, "D"),     // 4 is clamped to the last index
        (1.5, "D"),     // progress is clamped to [0, 1]
        (-0.2, "A"),
    ])
    func labels(progress: Double, label: String) throws {
        let state = try wheel.settle(wheel.position(forProgress: progress), after: nil)
        #expect(wheel.contents[state.top] == label)
        #expect(state.offset == 0)
    }

    @Test("progress 0.5 over three labels rests on the middle one, not between two")
    func wholeLabel() throws {
        let status = try Wheel(contents: ["Fine", "Slow", "Failing"])
        #expect(try status.position(forProgress: 0.5) == 1)
    }

    @Test("a label names its position")
    func label() {
        #expect(wheel.position(forLabel: "C") == 2)
        #expect(wheel.position(forLabel: "c") == nil)
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
