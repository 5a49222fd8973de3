/// One planned odometer change: the column positions, sign and laid-out width at any time.
///
/// A change that crosses zero plays two legs: the columns roll down to 0 under the old sign, the
/// sign flips, and they roll out to the new magnitude. Columns added on the left slide in over
/// 0.2 s each (ease-in-out) while the digits roll.
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

    public let duration: Double

    init(from start: OdometerState, to end: OdometerState, interval: Double?) {
        let from = start.scaledTarget
        let to = end.scaledTarget
        let columns = end.digits.count
        var digits = DigitPositions(count: columns, repeating: 0)
        let offset = columns - start.digits.count
        for (index, digit) in start.digits.enumerated() { digits[offset + index] = digit }
        startDigits = digits
        final = end
        startWidth = Double(start.digits.count)
        growth = 0.2 * Double(max(0, offset))
        if (from < 0 && to > 0) || (from > 0 && to < 0) {
            let toZero = OdometerLeg.defaultInterval(from: abs(from), to: 0)
            let fromZero = OdometerLeg.defaultInterval(from: 0, to: abs(to))
            let share = interval.map { $0 / (toZero + fromZero) }
            first = OdometerLeg(from: abs(from), to: 0, interval: share.map { $0 * toZero })
            second = OdometerLeg(from: 0, to: abs(to), interval: share.map { $0 * fromZero })
            firstNegative = from < 0
            secondNegative = to < 0
        } else {
            first = OdometerLeg(from: abs(from), to: abs(to), interval: interval)
            second = nil
            firstNegative = from < 0 || to < 0
            secondNegative = firstNegative
        }
        duration = max(first.duration + (second?.duration ?? 0), growth)
    }

    public func state(at elapsed: Double) -> OdometerState {
        if elapsed >= duration { return final }
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
        let endWidth = Double(final.digits.count)
        let width = growth > 0 && elapsed < growth
            ? startWidth + (endWidth - startWidth) * CubicBezier.easeInOut(elapsed / growth)
            : endWidth
        return final.with(digits: digits, negative: negative, width: width)
    }
}
