import Testing
import RollboardAnimation

@Suite("Chart")
struct ChartTests {
    func chart(count: Int = 4, duration: Double = 1, maxDuration: Double = 3, anchors: [Double] = []) throws -> Chart {
        try Chart(configuration: ChartConfiguration(
            count: count, duration: duration, maxDuration: maxDuration, easing: .linear, anchors: anchors))
    }

    /// Buckets 7…10 with values 10, nil, 30, 20.
    let resting = ChartPoints(newest: 10, values: [10, nil, 30, 20])

    @Test("a new bucket slides the plot exactly one step over the move, the newest point following from the old newest value")
    func slidesOneStep() throws {
        let chart = try chart()
        var queue = try AnimationQueue(chart, value: resting, at: 100)
        try queue.enqueue(resting.moved(to: 11, value: 40), at: 100)
        let start = queue.state(at: 100)
        #expect(start.shift == 0)
        #expect(start.values == [10, nil, 30, 20, 20])
        let half = queue.state(at: 100.5)
        #expect(half.shift == 0.5)
        #expect(half.values == [10, nil, 30, 20, 30])   // 20 + ½ × (40 − 20)
        let end = queue.state(at: 101)
        #expect(end == ChartState(values: [nil, 30, 20, 40], shift: 0, low: 20, high: 40, newest: 11))
        #expect(queue.restTime == 101)
    }

    @Test("the range eases from the old extent to the new one over the same move", arguments: [
        (0.0, 10.0, 30.0), (0.25, 12.5, 32.5), (0.5, 15.0, 35.0), (1.0, 20.0, 40.0),
    ])
    func rangeEases(elapsed: Double, low: Double, high: Double) throws {
        var queue = try AnimationQueue(try chart(), value: resting, at: 0)
        try queue.enqueue(resting.moved(to: 11, value: 40), at: 0)
        let state = queue.state(at: elapsed)
        #expect(abs(state.low - low) < 1e-9 && abs(state.high - high) < 1e-9, "\(state)")
    }

    @Test("at rest every value shown is one of the bucket values given, and a bucket without a value stays a gap")
    func noInventedValueAtRest() throws {
        var queue = try AnimationQueue(try chart(), value: resting, at: 0)
        let skipped = resting.moved(to: 13, value: 5)   // buckets 11 and 12 had no change
        try queue.enqueue(skipped, at: 0)
        #expect(skipped.values == [20, nil, nil, 5])
        let rest = queue.state(at: 1)
        #expect(rest.values == [20, nil, nil, 5])
        #expect(rest.shift == 0)
        // While it moves, the gaps stay gaps too: nothing is drawn between 20 and 5.
        #expect(queue.state(at: 0.5).values == [10, nil, 30, 20, nil, nil, 12.5])
    }

    @Test("a new value in the newest bucket moves only that point, with no slide")
    func sameBucket() throws {
        var queue = try AnimationQueue(try chart(), value: resting, at: 0)
        try queue.enqueue(resting.moved(to: 10, value: 26), at: 0)
        #expect(queue.state(at: 0.5) == ChartState(values: [10, nil, 30, 23], shift: 0, low: 10, high: 30, newest: 10))
        #expect(queue.state(at: 1).values == [10, nil, 30, 26])
    }

    @Test("a move never lasts longer than maxDuration, whatever interval a producer asks for", arguments: [
        (nil as Double?, 1.0), (0.4, 0.4), (2.5, 2.5), (10, 3),
    ])
    func maxDuration(interval: Double?, lasts: Double) throws {
        var queue = try AnimationQueue(try chart(), value: resting, at: 50)
        try queue.enqueue(resting.moved(to: 11, value: 40), at: 50, interval: interval)
        #expect(queue.restTime == 50 + lasts)
        #expect(queue.state(at: 50 + lasts).shift == 0)
        #expect(queue.state(at: 50 + lasts - 0.01).shift > 0.99 * min(1, lasts))
    }

    @Test("a jump of more buckets than the chart has leaves only the new point")
    func longJump() throws {
        let moved = resting.moved(to: 99, value: 7)
        #expect(moved == ChartPoints(newest: 99, values: [nil, nil, nil, 7]))
        var queue = try AnimationQueue(try chart(), value: resting, at: 0)
        try queue.enqueue(moved, at: 0)
        #expect(queue.state(at: 0.5).shift == 2)   // four steps over the move
        #expect(queue.state(at: 1).values == [nil, nil, nil, 7])
    }

    @Test("the range spans the goal and 0 for bars; equal values get room around them", arguments: [
        ([] as [Double], [5.0, 5], 4.0, 6.0),
        ([100], [5, 5], 5, 100),
        ([0], [5, 8], 0, 8),
        ([], [200, 200], 180, 220),
    ])
    func range(anchors: [Double], values: [Double], low: Double, high: Double) throws {
        let range = try chart(count: 2, anchors: anchors).range(of: values)
        #expect(range.low == low && range.high == high)
    }

    @Test("a retarget glides the range and the newest point on from where they stand")
    func retarget() throws {
        var queue = try AnimationQueue(try chart(), value: resting, at: 0, policy: .retarget)
        try queue.enqueue(resting.moved(to: 10, value: 40), at: 0)
        let shown = queue.state(at: 0.5)   // newest at 30, range 10 … 35
        try queue.enqueue(resting.moved(to: 10, value: 0), at: 0.5)
        let after = queue.state(at: 0.5)
        #expect(after.last == shown.last && after.low == shown.low && after.high == shown.high)
        #expect(queue.state(at: 1.5).values == [10, nil, 30, 0])
    }

    @Test("a configuration with too few points or a duration beyond maxDuration is refused", arguments: [
        (1, 1.0, 3.0), (4, 0, 3), (4, 4, 3),
    ])
    func refused(count: Int, duration: Double, maxDuration: Double) {
        #expect(throws: AnimationError.invalidConfiguration) {
            try Chart(configuration: ChartConfiguration(count: count, duration: duration, maxDuration: maxDuration))
        }
    }
}
