import RollboardTestSupport
import Testing
import RollboardAnimation

@Suite("Counter")
struct CounterTests {
    func counter(duration: Double = 1, easing: CounterEasing = .linear, format: String = "%.2f", grouping: String? = nil) throws -> Counter {
        try Counter(configuration: CounterConfiguration(duration: duration, easing: easing, format: NumberFormat(format: format, grouping: grouping)))
    }

    func count(_ counter: Counter, from: Double, to: Double, interval: Double? = nil) throws -> CounterAnimation {
        let start = try counter.settle(from, after: nil)
        return counter.animation(from: start, to: try counter.settle(to, after: start), interval: interval)
    }

    @Test("the easing curves are the article's rate-3 formulas", arguments: [
        (CounterEasing.easeInOut, 0.25, 0.0625),   // ½ (2t)³
        (.easeInOut, 0.75, 0.9375),                // ½ ((2t − 2)³ + 2)
        (.easeInOut, 0.5, 0.5),
        (.easeIn, 0.5, 0.125),                     // t³
        (.easeOut, 0.5, 0.875),                    // 1 − (1 − t)³
        (.linear, 0.3, 0.3),
        (.easeOut, 1.5, 1),
    ])
    func easing(curve: CounterEasing, time: Double, progress: Double) {
        #expect(isClose(curve(time), progress))
    }

    @Test("the article's 0 → 3048.64 count with ###,###.## ends on 3,048.64")
    func articleExample() throws {
        let counter = try counter(duration: 1, easing: .easeOut, format: "%.2f", grouping: "###,###.##")
        let animation = try count(counter, from: 0, to: 3048.64)
        #expect(animation.state(at: 0).text == "0")
        #expect(animation.state(at: 0.5).text == "2,667.56")   // 3048.64 × 0.875
        #expect(animation.state(at: 1).text == "3,048.64")
        #expect(animation.state(at: 1).value == 3048.64)
    }

    @Test("value(t) = from + ease(t / duration) × (to − from)", arguments: [
        (CounterEasing.linear, 0.25, 32.5),
        (.easeIn, 0.5, 21.25),
        (.easeInOut, 0.75, 94.375),
    ])
    func values(easing: CounterEasing, time: Double, value: Double) throws {
        let animation = try count(counter(easing: easing), from: 10, to: 100)
        #expect(isClose(animation.state(at: time).value, value))
    }

    @Test("the text never shows a number the count has not reached", arguments: [
        (0.0, 9.996, 0.99995, "9.99", "10.00"),
        (10, 0.004, 0.99995, "0.01", "0.00"),
    ])
    func neverPastTarget(from: Double, to: Double, time: Double, counting: String, rest: String) throws {
        let animation = try count(counter(), from: from, to: to)
        #expect(animation.state(at: time).text == counting)
        #expect(animation.state(at: 1).text == rest)
    }

    @Test("%d counts whole numbers and rests on the value rounded half away from zero")
    func wholeNumbers() throws {
        let animation = try count(counter(format: "%d"), from: 0, to: 3048.64)
        #expect(animation.state(at: 0.5).text == "1524")
        #expect(animation.state(at: 1).text == "3049")
    }

    @Test("durations default to 2 s and are never shorter than 0.3 s", arguments: [
        (nil as Double?, 2.0), (0.1, 0.3), (5, 5),
    ])
    func durations(interval: Double?, duration: Double) throws {
        let counter = try Counter(configuration: CounterConfiguration(format: NumberFormat()))
        #expect(try count(counter, from: 0, to: 1, interval: interval).duration == duration)
    }

    @Test("values that cannot be formatted exactly are refused", arguments: [
        (Double.nan, AnimationError.notFinite), (.infinity, .notFinite), (1e14, .outOfRange),
    ])
    func refuses(value: Double, error: AnimationError) throws {
        let counter = try counter()
        #expect(throws: error) { try counter.settle(value, after: nil) }
    }

    @Test("a compact count changes its unit as it passes 1,000 and never shows more than its target")
    func compactCount() throws {
        let counter = try Counter(
            configuration: CounterConfiguration(duration: 2, easing: .linear, format: NumberFormat(format: "%.1f", compact: true)))
        let animation = counter.animation(
            from: try counter.settle(900, after: nil), to: try counter.settle(4_560_000, after: nil), interval: nil)
        let texts = (0...100).map { animation.state(at: Double($0) / 50).text }
        #expect(texts.first == "900" && texts.last == "4.6M")
        #expect(texts.contains { $0.hasSuffix("K") } && texts.contains { $0.hasSuffix("M") })
        #expect(!texts.dropLast().contains("4.6M"), "a count rounds down until it arrives")
    }

    @Test("over many random counts the text never passes the target and the count ends on it")
    func randomCounts() throws {
        var generator = SplitMix64(seed: 11)
        let counter = try counter(easing: .easeInOut, format: "%.2f")
        for _ in 0..<300 {
            let from = Double.random(in: -1e6...1e6, using: &generator)
            let to = Double.random(in: -1e6...1e6, using: &generator)
            let animation = try count(counter, from: from, to: to)
            let target = number(animation.state(at: 1).text)
            for step in 0...30 {
                let shown = number(animation.state(at: Double(step) / 30).text)
                #expect(to >= from ? shown <= target : shown >= target)
            }
        }
    }
}

/// The number a counter text shows (its minus sign is U+2212).
private func number(_ text: String) -> Double {
    Double(String(text.map { $0 == "\u{2212}" ? "-" : $0 }))!
}
