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

    /// Plans the change. The article's timeline (repeat counts, phases, curves, staggered delays) gives the shape;
    /// when `interval` is given the whole move takes exactly that long, otherwise at most `maxDuration` (if any).
    /// A bounded move caps every column's delay at ``OdometerConfiguration/maximumDelayShare`` of the move.
    init(from start: OdometerState, to end: OdometerState, interval: Double?, maxDuration: Double? = nil) {
        let from = start.scaledTarget
        let to = end.scaledTarget
        let columns = end.digits.count
        var digits = DigitPositions(count: columns, repeating: 0)
        let offset = columns - start.digits.count
        for (index, digit) in start.digits.enumerated() { digits[offset + index] = digit }
        startDigits = digits
        final = end
        startWidth = Double(start.digits.count)
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
            let target = interval ?? min(natural, maxDuration ?? natural)
            if natural > 0 {
                first = first.scaled(by: target / natural)
                second = second?.scaled(by: target / natural)
            }
            growth = min(growth, target > 0 ? target : growth)
        }
        self.first = first
        self.second = second
        self.growth = growth
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
