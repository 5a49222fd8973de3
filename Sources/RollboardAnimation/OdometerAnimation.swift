/// One planned odometer change: the column positions, sign and laid-out width at any time.
///
/// A change that crosses zero plays two legs: the columns roll down to 0 under the old sign, the
/// sign flips, and they roll out to the new magnitude. Columns added on the left slide in over
/// 0.2 s each (ease-in-out) while the digits roll; columns a growing odometer no longer needs slide out
/// the same way once the digits are at rest (within the move's bounded time, when it has one).
///
/// A retarget plays a ``Glide`` of the value instead, and the columns turn like a mechanical odometer's: the last
/// column follows the value continuously, and every other column turns on to its next digit while the column below
/// it passes from 9 to 0. The shown value then never passes the target and never turns back on the way.
public struct OdometerAnimation: TileAnimation {
    public typealias State = OdometerState

    let first: OdometerLeg
    let second: OdometerLeg?
    let firstNegative: Bool
    let secondNegative: Bool
    /// The resting digits before the change, padded to the final column count.
    let startDigits: DigitPositions
    /// The resting state after the change.
    let final: OdometerState
    let startWidth: Double
    let growth: Double
    /// The final digits with leading zero columns up to the move's column count, and how long they take to slide
    /// out at the end of the move.
    let paddedFinal: DigitPositions
    let shrink: Double
    /// The start's value × 10^decimals.
    let startScaled: Int64
    /// The start's position on the compact unit strip.
    let startUnit: Double
    /// The retarget's glide of the signed value × 10^decimals, or `nil` for the article's timeline.
    let glide: Glide?

    public let duration: Double

    /// Plans the change. The article's timeline (repeat counts, phases, curves, staggered delays) gives the shape;
    /// when `interval` is given the whole move takes exactly that long, otherwise at most `maxDuration` (if any).
    /// A bounded move caps every column's delay at ``OdometerConfiguration/maximumDelayShare`` of the move.
    init(from start: OdometerState, to end: OdometerState, interval: Double?, maxDuration: Double? = nil) {
        let from = start.scaledTarget
        let to = end.scaledTarget
        let columns = max(start.digits.count, end.digits.count)
        startDigits = Self.padded(start.digits, to: columns)
        paddedFinal = Self.padded(end.digits, to: columns)
        let offset = columns - start.digits.count
        var shrink = 0.2 * Double(columns - end.digits.count)
        final = end
        startWidth = Double(start.digits.count)
        startScaled = from
        startUnit = start.unit
        glide = nil
        var first: OdometerLeg
        var second: OdometerLeg?
        if (from < 0 && to > 0) || (from > 0 && to < 0) {
            first = OdometerLeg(from: abs(from), to: 0)
            second = OdometerLeg(from: 0, to: abs(to))
            firstNegative = from < 0
            secondNegative = to < 0
        } else {
            first = OdometerLeg(from: abs(from), to: abs(to))
            second = nil
            firstNegative = from < 0 || to < 0
            secondNegative = firstNegative
        }
        var growth = 0.2 * Double(max(0, offset))
        if interval != nil || maxDuration != nil {
            first = first.cappingDelays(toShare: OdometerConfiguration.maximumDelayShare)
            second = second?.cappingDelays(toShare: OdometerConfiguration.maximumDelayShare)
            let natural = first.duration + (second?.duration ?? 0)
            let target = interval ?? min(natural + shrink, maxDuration ?? natural + shrink)
            shrink = min(shrink, OdometerConfiguration.maximumDelayShare * target)
            let rolling = target - shrink
            if natural > 0 {
                first = first.scaled(by: rolling / natural)
                second = second?.scaled(by: rolling / natural)
            }
            growth = min(growth, rolling > 0 ? rolling : growth)
        }
        self.first = first
        self.second = second
        self.growth = growth
        self.shrink = shrink
        duration = max(first.duration + (second?.duration ?? 0), growth) + shrink
    }

    /// The position on the compact unit strip `elapsed` seconds in: from the start's unit to the final one, easing in
    /// and out over the rolling part of the move.
    private func unitPosition(at elapsed: Double) -> Double {
        let rolling = duration - shrink
        guard startUnit != final.unit, rolling > 0 else { return final.unit }
        return startUnit + (final.unit - startUnit) * CubicBezier.easeInOut(min(1, elapsed / rolling))
    }

    /// `digits` with leading zero columns added up to `count`.
    static func padded(_ digits: DigitPositions, to count: Int) -> DigitPositions {
        var padded = DigitPositions(count: count, repeating: 0)
        let offset = count - digits.count
        for (index, digit) in digits.enumerated() { padded[offset + index] = digit }
        return padded
    }

    /// The columns at rest on the final digits while the unneeded ones slide out, `elapsed` seconds into the move.
    private func shrinking(at elapsed: Double) -> OdometerState {
        let progress = CubicBezier.easeInOut((elapsed - (duration - shrink)) / shrink)
        let wide = Double(paddedFinal.count)
        return final.with(
            digits: paddedFinal, negative: final.negative, width: wide - (wide - Double(final.digits.count)) * progress)
    }

    /// Plans a retarget: a glide from `value` × 10^decimals, moving at `velocity` of those units per second, to
    /// `end` over `columns` columns (at least `end`'s). It takes `interval` seconds exactly when given; otherwise as
    /// long as the article's move between the two values would, at least 0.3 s and at most `maxDuration`.
    init(
        gliding value: Double, velocity: Double, columns: Int, unit: Double = 0, to end: OdometerState, interval: Double?,
        maxDuration: Double?
    ) {
        let natural = max(Self.naturalDuration(from: Int64(value.rounded()), to: end.scaledTarget), 0.3)
        let length = interval ?? min(natural, maxDuration ?? natural)
        let columns = max(columns, end.digits.count)
        shrink = min(0.2 * Double(columns - end.digits.count), OdometerConfiguration.maximumDelayShare * length)
        glide = Glide(from: value, velocity: velocity, to: Double(end.scaledTarget), duration: length - shrink)
        startDigits = DigitPositions(count: columns, repeating: 0)
        paddedFinal = Self.padded(end.digits, to: columns)
        final = end
        startWidth = Double(columns)
        growth = 0
        startScaled = Int64(value.rounded())
        startUnit = unit
        first = OdometerLeg(from: 0, to: 0)
        second = nil
        firstNegative = value < 0
        secondNegative = end.negative
        duration = length
    }

    /// The article's duration of the move from `from` to `to` (both × 10^decimals), both legs when it crosses zero.
    static func naturalDuration(from: Int64, to: Int64) -> Double {
        if (from < 0 && to > 0) || (from > 0 && to < 0) {
            return OdometerLeg(from: abs(from), to: 0).duration + OdometerLeg(from: 0, to: abs(to)).duration
        }
        return OdometerLeg(from: abs(from), to: abs(to)).duration
    }

    /// Where a retarget `elapsed` seconds in starts from: the signed value × 10^decimals the columns show, how fast it
    /// moves (per second), and the number of columns.
    func motion(at elapsed: Double) -> (value: Double, velocity: Double, columns: Int) {
        if let glide { return (glide.value(at: elapsed), glide.velocity(at: elapsed), startDigits.count) }
        let state = state(at: elapsed)
        let velocity = elapsed < duration && duration > 0 ? Double(final.scaledTarget - startScaled) / duration : 0
        return (Self.reading(state), velocity, state.digits.count)
    }

    /// The signed value × 10^decimals that column positions read: every column's whole digit, plus the last
    /// column's fraction.
    static func reading(_ state: OdometerState) -> Double {
        var magnitude = 0.0
        for position in state.digits { magnitude = magnitude * 10 + position.rounded(.down) }
        if let last = state.digits.last { magnitude += last - last.rounded(.down) }
        return state.negative ? -magnitude : magnitude
    }

    public func state(at elapsed: Double) -> OdometerState {
        if elapsed >= duration { return final }
        if shrink > 0 && elapsed >= duration - shrink { return shrinking(at: elapsed) }
        if let glide {
            let value = glide.value(at: elapsed)
            var digits = startDigits
            Self.turn(&digits, to: abs(value))
            return final.with(
                digits: digits, negative: value < 0 || (value == 0 && firstNegative), width: startWidth,
                unit: unitPosition(at: elapsed))
        }
        var digits = startDigits
        let negative: Bool
        if let second, elapsed >= first.duration {
            for column in first.motions.indices { digits[digits.count - 1 - column] = 0 }
            second.write(into: &digits, at: elapsed - first.duration)
            negative = secondNegative
        } else {
            first.write(into: &digits, at: elapsed)
            negative = firstNegative
        }
        let endWidth = Double(startDigits.count)
        let width = growth > 0 && elapsed < growth
            ? startWidth + (endWidth - startWidth) * CubicBezier.easeInOut(elapsed / growth)
            : endWidth
        return final.with(digits: digits, negative: negative, width: width, unit: unitPosition(at: elapsed))
    }

    /// Sets the columns to a mechanical odometer's positions for `magnitude`: the last column at `magnitude` mod 10,
    /// each other column at its digit plus the part of its turn that the column below has made past 9.
    static func turn(_ digits: inout DigitPositions, to magnitude: Double) {
        var below = 0.0
        var place = 1.0
        for index in stride(from: digits.count - 1, through: 0, by: -1) {
            let digit = (magnitude / place).rounded(.down).truncatingRemainder(dividingBy: 10)
            var position = index == digits.count - 1
                ? magnitude.truncatingRemainder(dividingBy: 10)
                : digit + max(0, below - 9)
            if position >= 10 { position -= 10 }
            digits[index] = position
            below = position
            place *= 10
        }
    }
}
