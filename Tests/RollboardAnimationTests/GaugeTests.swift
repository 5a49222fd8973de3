import Testing
import RollboardAnimation

@Suite("Gauge")
struct GaugeTests {
    func gauge(min: Double = 0, max: Double = 200, duration: Double = 1, easing: CounterEasing = .easeInOut) throws -> Gauge {
        try Gauge(configuration: GaugeConfiguration(
            counter: CounterConfiguration(duration: duration, easing: easing, format: NumberFormat(format: "%d")),
            scale: GaugeScale(min: min, max: max)))
    }

    @Test("the needle stands at (value − min) / (max − min), pinned to the ends beyond them", arguments: [
        (-50.0, 0.0), (0, 0), (50, 0.25), (150, 0.75), (200, 1), (260, 1),
    ])
    func fraction(value: Double, fraction: Double) throws {
        let gauge = try gauge()
        #expect(isClose(gauge.fraction(of: try gauge.settle(value, after: nil)), fraction))
    }

    @Test("a dial whose max is not above its min is refused", arguments: [(10.0, 10.0), (10, 5), (0, .infinity)])
    func badScale(min: Double, max: Double) {
        #expect(throws: AnimationError.self) { try GaugeScale(min: min, max: max) }
    }

    @Test("the needle eases in and out between the old and the new place over the duration", arguments: [
        (0.0, 0.1),        // 20 of 200
        (0.25, 0.1375),    // 20 + 120 × ½(0.5)³ = 27.5
        (0.5, 0.4),        // half way: 80
        (0.75, 0.6625),    // 20 + 120 × 0.9375 = 132.5
        (1.0, 0.7),        // rests on 140
        (5.0, 0.7),
    ])
    func easesInAndOut(elapsed: Double, fraction: Double) throws {
        let gauge = try gauge()
        var queue = try AnimationQueue(gauge, value: 20, at: 100)
        try queue.enqueue(140, at: 100)
        #expect(isClose(gauge.fraction(of: queue.state(at: 100 + elapsed)), fraction))
        #expect(queue.restTime == 101)
    }

    @Test("a value posted while the needle moves bends it towards the new place without stopping or overshooting")
    func retargets() throws {
        let gauge = try gauge(easing: .linear)
        var queue = try AnimationQueue(gauge, value: 0, at: 0, policy: .retarget)
        try queue.enqueue(100, at: 0)
        let before = gauge.fraction(of: queue.state(at: 0.5))
        try queue.enqueue(200, at: 0.5)
        var previous = before
        for step in 1...100 {
            let now = gauge.fraction(of: queue.state(at: 0.5 + Double(step) / 100))
            #expect(now >= previous - 1e-12 && now <= 1)
            previous = now
        }
        #expect(isClose(before, 0.25))
        #expect(isClose(gauge.fraction(of: queue.state(at: 1.5)), 1))
    }

    @Test("under a lag bound, posts faster than the needle collapse into one quicker move to the newest value")
    func lagBound() throws {
        let gauge = try gauge(duration: 1)
        var queue = try AnimationQueue(gauge, value: 0, at: 0, maxLag: 2)
        for second in 0..<6 { try queue.enqueue(Double(20 + 30 * second), at: Double(second) * 0.2) }
        #expect(queue.restTime - 1.0 <= 2 + 1e-9)
        #expect(queue.state(at: queue.restTime).target == 170)
        #expect(isClose(gauge.fraction(of: queue.state(at: queue.restTime)), 0.85))
    }
}
