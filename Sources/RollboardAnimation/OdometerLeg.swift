/// One odometer change between two non-negative column values (DPScrollNumberLabel's
/// `playAnimationWithChange`): repeat counts from the carry rule, the interval from the size of the
/// change, and per-column phase timings with staggered delays.
struct OdometerLeg: Sendable {
    /// Motions of the changed columns, units column first.
    let motions: [ColumnMotion]
    let duration: Double

    static let powersOfTen: [Int64] = (0...18).map { exponent in
        (0..<exponent).reduce(Int64(1)) { power, _ in power * 10 }
    }

    /// The number of columns, counted from the units, whose digit or carry changes.
    static func changedColumns(from start: Int64, to end: Int64) -> Int {
        var count = 0
        while count < 18 && start / powersOfTen[count] != end / powersOfTen[count] { count += 1 }
        return count
    }

    /// The article's interval: 0.3 s × changed columns × |digit change in the highest changed column|.
    static func defaultInterval(from start: Int64, to end: Int64) -> Double {
        let count = changedColumns(from: start, to: end)
        guard count > 0 else { return 0 }
        let place = powersOfTen[count - 1]
        let change = abs(end / place % 10 - start / place % 10)
        return 0.3 * Double(count) * Double(change)
    }

    /// Plans the change from `start` to `end` (both ≥ 0) on the article's timeline.
    init(from start: Int64, to end: Int64) {
        let count = Self.changedColumns(from: start, to: end)
        let interval = Self.defaultInterval(from: start, to: end)
        let upward = end > start
        let magnitude = Double(abs(end - start))
        var motions: [ColumnMotion] = []
        motions.reserveCapacity(count)
        var delay = 0.0
        for column in 0..<count {
            let place = Self.powersOfTen[column]
            let origin = Double(start / place % 10)
            let target = Double(end / place % 10)
            let repeats = abs(end / (place * 10) - start / (place * 10))
            if repeats == 0 {
                motions.append(.single(from: origin, to: target, delay: delay, duration: interval))
                continue
            }
            let scaledChange = magnitude / Double(place)
            let startDuration = interval * (upward ? 10 - origin : origin) / scaledChange.rounded(.up)
            let cycle = repeats == 1 ? 0 : interval * 10 / scaledChange
            let endDuration = 0.7 * power(upward ? target : 10 - target, 0.3) / Double(column + 1)
            motions.append(ColumnMotion(upward: upward, single: false, from: origin, to: target, delay: delay,
                                        start: startDuration, cycle: cycle, cycles: Double(repeats - 1), end: endDuration))
            delay += startDuration
        }
        self.motions = motions
        duration = motions.reduce(0) { max($0, $1.finish) }
    }

    /// The same plan with no column waiting longer than `share` of the leg's duration for the columns below it.
    /// Capping shortens the leg, so the cap is tightened until it holds for the shortened leg too.
    func cappingDelays(toShare share: Double) -> OdometerLeg {
        var leg = self
        for _ in 0..<32 {
            let cap = share * leg.duration
            guard leg.motions.contains(where: { $0.delay > cap * (1 + 1e-12) }) else { break }
            leg = OdometerLeg(motions: leg.motions.map { motion in
                var motion = motion
                motion.delay = min(motion.delay, cap)
                return motion
            })
        }
        return leg
    }

    /// The same plan played `factor` times as long (every delay and phase scaled).
    func scaled(by factor: Double) -> OdometerLeg {
        OdometerLeg(motions: motions.map { motion in
            var motion = motion
            motion.delay *= factor
            motion.start *= factor
            motion.cycle *= factor
            motion.end *= factor
            return motion
        })
    }

    private init(motions: [ColumnMotion]) {
        self.motions = motions
        duration = motions.reduce(0) { max($0, $1.finish) }
    }

    /// Writes the positions of the changed columns `elapsed` seconds into the change; `digits` holds
    /// the resting digits of the unchanged columns.
    func write(into digits: inout DigitPositions, at elapsed: Double) {
        let last = digits.count - 1
        for column in motions.indices {
            digits[last - column] = motions[column].position(at: elapsed)
        }
    }
}
