import RollboardTestSupport
import Testing
@testable import RollboardAnimation

@Suite("Odometer")
struct OdometerTests {
    let odometer = try! Odometer()

    func animation(_ from: Double, _ to: Double, interval: Double? = nil, in odometer: Odometer? = nil) throws -> OdometerAnimation {
        let odometer = odometer ?? self.odometer
        let start = try odometer.settle(from, after: nil)
        return odometer.animation(from: start, to: try odometer.settle(to, after: start), interval: interval)
    }

    /// The article's timing of one column: (delay, start or single duration, cycle, cycles, end).
    struct Timing: Sendable, CustomTestStringConvertible {
        var single: Bool
        var delay: Double
        var start: Double
        var cycle = 0.0
        var cycles = 0.0
        var end = 0.0
        var testDescription: String { single ? "single \(start) s after \(delay) s" : "multi after \(delay) s" }
    }

    // Worked out from the article: interval = 0.3 × changed columns × |top digit change|;
    // start = interval × (10 − digit) / ⌈|change| / 10^i⌉ (digit going down);
    // cycle = interval × 10 / (|change| / 10^i), none when the column wraps once;
    // end = 0.7 × digit^0.3 / (i + 1) ((10 − digit) going down); delays add up lower start durations.
    @Test("the article's examples get the article's column timings, units column first", arguments: [
        (521.0, 530.0, 1.2, [
            Timing(single: false, delay: 0, start: 0.6 * 9 / 9, end: 0),       // units 1 → 10, 0.7 × 0^0.3 = 0
            Timing(single: true, delay: 0.6, start: 0.6),                      // tens 2 → 3
        ]),
        (521.0, 542.0, 1.947515375055727, [
            Timing(single: false, delay: 0, start: 1.2 * 9 / 21, cycle: 1.2 * 10 / 21, cycles: 1,
                   end: 0.8618010893414414),                                  // 0.7 × 2^0.3
            Timing(single: true, delay: 1.2 * 9 / 21, start: 1.2),
        ]),
        (530.0, 521.0, 1.353227431452234, [
            Timing(single: false, delay: 0, start: 0, end: 1.353227431452234),  // 0.7 × 9^0.3, going down
            Timing(single: true, delay: 0, start: 0.6),
        ]),
        (999.0, 1000.0, 4.8, [
            Timing(single: false, delay: 0, start: 1.2),
            Timing(single: false, delay: 1.2, start: 1.2),
            Timing(single: false, delay: 2.4, start: 1.2),
            Timing(single: true, delay: 3.6, start: 1.2),
        ]),
        (5.0, 0.0, 1.5, [Timing(single: true, delay: 0, start: 1.5)]),
    ])
    func articleTimings(from: Double, to: Double, duration: Double, columns: [Timing]) throws {
        let animation = try animation(from, to)
        #expect(isClose(animation.duration, duration))
        let motions = animation.first.motions
        #expect(motions.count == columns.count)
        for (motion, timing) in zip(motions, columns) {
            #expect(motion.single == timing.single)
            #expect(isClose(motion.delay, timing.delay))
            #expect(isClose(motion.start, timing.start))
            #expect(isClose(motion.cycle, timing.cycle))
            #expect(motion.cycles == timing.cycles)
            #expect(isClose(motion.end, timing.end))
        }
    }

    @Test("repeat counts follow the carry rule", arguments: [
        (521.0, 530.0, [1.0, 0]),     // units wraps once: start and end only
        (521.0, 542.0, [2.0, 0]),     // units: start, one whole cycle, end
        (100.0, 200.0, [10.0, 1, 0]),
        (999.0, 1000.0, [1.0, 1, 1, 0]),
        (0.0, 12345678.0, [1234567.0, 123456, 12345, 1234, 123, 12, 1, 0]),
    ])
    func repeatCounts(from: Double, to: Double, repeats: [Double]) throws {
        let motions = try animation(from, to).first.motions
        #expect(motions.map { $0.single ? 0 : $0.cycles + 1 } == repeats)
    }

    @Test("positions mid-change follow the phase curves", arguments: [
        (521.0, 530.0, 0.3, [5, 2, 3.838211313152855]),           // units 1 + 9 × easeIn(½)
        (521.0, 530.0, 0.9, [5, 2.6846431874274606, 0]),          // tens 2 + easeOut(½)
        (521.0, 530.0, 1.2, [5, 3, 0]),
        (530.0, 521.0, 0.3, [5, 2.3153568125725394, 6.949273886938638]),  // units 10 − 9 × easeOut(0.3 / 1.3532)
        (521.0, 542.0, 0.5142857142857142 + 0.2857142857142857, [5, 2.723543850185714, 5]),  // mid-cycle: units at 5, tens 2 + 2 × easeOut(0.2857 / 1.2)
        (999.0, 1000.0, 0.6, [0, 9, 9, 9.315356812572539]),
        (999.0, 1000.0, 4.2, [0.6846431874274606, 0, 0, 0]),
        (5.0, 0.0, 0.75, [1.5767840628626972]),
    ])
    func positions(from: Double, to: Double, time: Double, digits: [Double]) throws {
        let state = try animation(from, to).state(at: time)
        #expect(isClose(state.digits, digits), "\(state.digits)")
    }

    @Test("0 → 12345678 grows from one column to eight and the top column waits for every lower start")
    func zeroToEightDigits() throws {
        let animation = try animation(0, 12_345_678)
        let starts = [12_345_678.0, 1_234_568, 123_457, 12_346, 1235, 124, 13].reduce(0) { $0 + 2.4 * 10 / $1 }
        #expect(isClose(animation.first.motions[7].delay, starts))
        #expect(isClose(animation.duration, starts + 2.4))
        #expect(animation.state(at: 0).digits == [0, 0, 0, 0, 0, 0, 0, 0])
        #expect(isClose(animation.state(at: 0.7).width, 1 + 7 * 0.5))  // 0.2 s per added column, ease-in-out
        #expect(animation.state(at: 1.41).width == 8)
        #expect(animation.state(at: animation.duration).digits == [1, 2, 3, 4, 5, 6, 7, 8])
    }

    @Test("5 → −3 rolls down to 0, flips the sign and rolls out")
    func crossingZero() throws {
        let animation = try animation(5, -3)
        #expect(isClose(animation.duration, 1.5 + 0.9))
        let before = animation.state(at: 0.75)
        #expect(!before.negative)
        #expect(isClose(before.digits, [1.5767840628626972]))
        let after = animation.state(at: 1.5 + 0.45)
        #expect(after.negative)
        #expect(isClose(after.digits, [2.0539295622823817]))
        let rest = animation.state(at: 2.4)
        #expect(rest.negative && rest.digits == [3] && rest.target == -3)
    }

    /// (from, to, interval) in column units: 86,420.00 and 1,999.99 → 2,000.00 with two decimals among them.
    static let intervals: [(Double, Double, Double)] = [
        (521, 530, 2), (5, -3, 4.8), (0, 8_642_000, 1), (199_999, 200_000, 0.5), (999, 1000, 3), (42, 41, 0.25),
    ]

    @Test("a given interval is the whole move, exactly, across zero too", arguments: intervals)
    func givenInterval(from: Double, to: Double, interval: Double) throws {
        let animation = try animation(from, to, interval: interval)
        #expect(isClose(animation.duration, interval))
        #expect(animation.state(at: interval) == (try odometer.settle(to, after: nil)))
        #expect(animation.state(at: interval * 0.9) != animation.state(at: interval))
    }

    @Test("across zero the legs keep the article's proportions within the given interval")
    func crossingShares() throws {
        let crossing = try animation(5, -3, interval: 4.8)
        #expect(isClose(crossing.first.duration, 3) && isClose(crossing.second?.duration ?? 0, 1.8))
    }

    @Test(
        "maxDuration bounds a long move and leaves a short one on the article's timeline",
        arguments: [(0.0, 8_642_000.0, 3.0, 3.0), (0, 8_642_000, 0.5, 0.5), (521, 522, 3, 0.3)])
    func maxDurationBounds(from: Double, to: Double, maxDuration: Double, expected: Double) throws {
        let bounded = try Odometer(configuration: OdometerConfiguration(columns: .growing(maximum: 10), maxDuration: maxDuration))
        let article = try animation(from, to, in: try Odometer(configuration: OdometerConfiguration(columns: .growing(maximum: 10))))
        let animation = try animation(from, to, in: bounded)
        #expect(article.duration > 0)
        #expect(isClose(animation.duration, expected), "\(animation.duration) s, the article's \(article.duration) s")
        #expect(animation.state(at: animation.duration) == article.state(at: article.duration))
    }

    @Test("in a bounded move no column waits longer than a quarter of it for the columns below")
    func delaysAreCapped() throws {
        let odometer = try Odometer(configuration: OdometerConfiguration(columns: .fixed(8), maxDuration: 3))
        let cent = try animation(199_999, 200_000, in: odometer)
        let delays = cent.first.motions.map(\.delay)
        #expect(delays.count == 6)
        #expect(cent.duration <= 3, "\(cent.duration) s")
        #expect(delays.allSatisfy { $0 <= OdometerConfiguration.maximumDelayShare * cent.duration + 1e-9 }, "\(delays)")
        let article = try animation(199_999, 200_000, in: try Odometer(configuration: OdometerConfiguration(columns: .fixed(8))))
        #expect(article.duration > 10, "the article's own timeline for one cent: \(article.duration) s")
    }

    @Test("a maxDuration that is not a positive number of seconds is refused", arguments: [0.0, -1, .nan, .infinity])
    func invalidMaxDuration(_ seconds: Double) {
        #expect(throws: AnimationError.invalidConfiguration) {
            try Odometer(configuration: OdometerConfiguration(maxDuration: seconds))
        }
    }

    @Test("values settle into whole-digit columns", arguments: [
        (OdometerConfiguration(), 521.0, [5.0, 2, 1], false, 521.0),
        (OdometerConfiguration(), -42, [4, 2], true, -42),
        (OdometerConfiguration(), -0.0, [0], false, 0),
        (OdometerConfiguration(columns: .fixed(5)), 42, [0, 0, 0, 4, 2], false, 42),
        (OdometerConfiguration(decimals: 2), 3.14159, [3, 1, 4], false, 3.14),
        (OdometerConfiguration(decimals: 2), 0.05, [0, 0, 5], false, 0.05),
        (OdometerConfiguration(decimals: 2), 1.5, [1, 5, 0], false, 1.5),
    ])
    func settles(configuration: OdometerConfiguration, value: Double, digits: [Double], negative: Bool, target: Double) throws {
        let state = try Odometer(configuration: configuration).settle(value, after: nil)
        #expect(state.digits == DigitPositions(digits))
        #expect(state.negative == negative)
        #expect(state.target == target)
    }

    @Test("growing columns shrink back to what the value needs, sliding out once the digits rest",
          arguments: [nil, 3.0] as [Double?])
    func shrinksBack(maxDuration: Double?) throws {
        let odometer = try Odometer(configuration: OdometerConfiguration(maxDuration: maxDuration))
        let wide = try odometer.settle(1234, after: nil)
        let narrow = try odometer.settle(5, after: wide)
        #expect(narrow.digits == [5])
        let move = odometer.animation(from: wide, to: narrow, interval: nil)
        let slide = 0.2 * 3
        if let maxDuration { #expect(move.duration <= maxDuration + 1e-9) }
        let rolling = move.state(at: (move.duration - slide) / 2)
        #expect(rolling.digits.count == 4 && rolling.width == 4)
        let resting = move.state(at: move.duration - slide + 1e-9)
        #expect(resting.digits == [0, 0, 0, 5])
        let sliding = move.state(at: move.duration - slide / 2)
        #expect(sliding.width > 1 && sliding.width < 4)
        #expect(move.state(at: move.duration) == narrow)
    }

    @Test("compact notation shows a mantissa below 1,000 and the unit beside it", arguments: [
        (950.0, [9, 5, 0, 0] as [Double], 0.0, 950.0),
        (12_345, [0, 1, 2, 3], 1, 12_300),
        (999_960, [0, 0, 1, 0], 2, 1_000_000),
        (-4_560_000, [0, 0, 4, 6], 2, -4_600_000),
        (7.26e12, [0, 0, 7, 3], 4, 7.3e12),
    ])
    func compact(value: Double, digits: [Double], unit: Double, target: Double) throws {
        let odometer = try Odometer(configuration: OdometerConfiguration(columns: .fixed(4), decimals: 1, compact: true))
        let state = try odometer.settle(value, after: nil)
        #expect(state.digits == DigitPositions(digits))
        #expect(state.unit == unit)
        #expect(isClose(state.target, target, tolerance: 1e-3))
    }

    @Test("a compact move rolls the unit strip from one unit to the next while the digits roll")
    func compactUnitRolls() throws {
        let odometer = try Odometer(
            configuration: OdometerConfiguration(columns: .fixed(4), decimals: 1, maxDuration: 2, compact: true))
        let move = odometer.animation(
            from: try odometer.settle(950_000, after: nil), to: try odometer.settle(1_200_000, after: nil), interval: nil)
        let units = stride(from: 0.0, through: move.duration, by: move.duration / 20).map { move.state(at: $0).unit }
        #expect(units.first == 1 && units.last == 2)
        #expect(units.contains { $0 > 1 && $0 < 2 })
        #expect(zip(units, units.dropFirst()).allSatisfy { $0 <= $1 })
    }

    @Test("compact notation needs room for a mantissa up to 999")
    func compactNeedsRoom() {
        #expect(throws: AnimationError.invalidConfiguration) {
            try Odometer(configuration: OdometerConfiguration(columns: .fixed(3), decimals: 1, compact: true))
        }
    }

    @Test("values the odometer cannot show are refused", arguments: [
        (OdometerConfiguration(columns: .fixed(3)), 1000.0, AnimationError.tooWide),
        (OdometerConfiguration(), 123_456_789, .tooWide),
        (OdometerConfiguration(columns: .growing(maximum: 15)), 1e15, .outOfRange),
        (OdometerConfiguration(), .nan, .notFinite),
        (OdometerConfiguration(), -.infinity, .notFinite),
    ])
    func refuses(configuration: OdometerConfiguration, value: Double, error: AnimationError) throws {
        let odometer = try Odometer(configuration: configuration)
        #expect(throws: error) { try odometer.settle(value, after: nil) }
    }

    @Test("configurations outside the allowed ranges are refused", arguments: [
        OdometerConfiguration(columns: .fixed(0)),
        OdometerConfiguration(columns: .growing(maximum: 16)),
        OdometerConfiguration(decimals: 7),
        OdometerConfiguration(columns: .fixed(2), decimals: 2),
    ])
    func refusesConfiguration(configuration: OdometerConfiguration) {
        #expect(throws: AnimationError.invalidConfiguration) { try Odometer(configuration: configuration) }
    }

    @Test("over many random changes positions stay in [0, 10), timings are finite and every change ends on its target")
    func randomChanges() throws {
        var generator = SplitMix64(seed: 2024)
        let configurations = [
            OdometerConfiguration(), OdometerConfiguration(columns: .fixed(12)),
            OdometerConfiguration(columns: .growing(maximum: 15), decimals: 3),
        ]
        for round in 0..<600 {
            let odometer = try Odometer(configuration: configurations[round % configurations.count])
            let limit = odometer.configuration.maximumColumns - odometer.configuration.decimals
            func randomValue() -> Double {
                let digits = Int.random(in: 0...limit, using: &generator)
                let magnitude = Double(Int64.random(in: 0..<OdometerLeg.powersOfTen[digits], using: &generator))
                let fraction = Double(Int.random(in: 0..<1000, using: &generator)) / 1000
                let value = min(magnitude + fraction, Double(OdometerLeg.powersOfTen[limit]) - 1)
                return Bool.random(using: &generator) ? -value : value
            }
            let start = try odometer.settle(randomValue(), after: nil)
            let end = try odometer.settle(randomValue(), after: start)
            let interval: Double? = Bool.random(using: &generator) ? Double.random(in: 0.1...5, using: &generator) : nil
            let animation = odometer.animation(from: start, to: end, interval: interval)
            #expect(animation.duration.isFinite && animation.duration >= 0)
            if let interval, start != end { #expect(abs(animation.duration - interval) < 1e-9) }
            for motion in animation.first.motions + (animation.second?.motions ?? []) {
                #expect([motion.delay, motion.start, motion.cycle, motion.end].allSatisfy { $0.isFinite && $0 >= 0 })
            }
            for step in 0...40 {
                let state = animation.state(at: step == 40 ? animation.duration : animation.duration * Double(step) / 40)
                let moving = step < 40
                #expect(state.digits.count == (moving ? max(start.digits.count, end.digits.count) : end.digits.count))
                #expect(state.width >= Double(min(start.digits.count, end.digits.count)) - 1e-9)
                #expect(state.digits.allSatisfy { $0 >= 0 && $0 < 10 }, "\(state.digits)")
            }
            #expect(animation.state(at: animation.duration) == end)
            #expect(end.digits.allSatisfy { $0 == $0.rounded() })
        }
    }
}
