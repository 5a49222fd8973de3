/// Rolling digit columns (DPScrollNumberLabel): every column shows the strip `0 1 … 9 0`, and a
/// change rolls the columns with carries, staggered from the units up.
public struct Odometer: TileAnimator {
    public typealias Value = Double
    public typealias State = OdometerState
    public typealias Animation = OdometerAnimation

    /// The column layout and decimal places.
    public let configuration: OdometerConfiguration

    /// The units of compact notation, one per power of 1,000; a state's `unit` is a position on this strip.
    public static let compactUnits = ["", "K", "M", "B", "T"]
    private let scale: Double

    /// Creates an odometer; throws ``AnimationError/invalidConfiguration`` for settings out of range.
    public init(configuration: OdometerConfiguration = OdometerConfiguration()) throws(AnimationError) {
        try configuration.validate()
        self.configuration = configuration
        scale = Double(OdometerLeg.powersOfTen[configuration.decimals])
    }

    /// The resting state showing `value`, rounded to the configured decimal places half away from zero
    /// (``NumberFormat/shownRounding(_:)``). Growing columns are
    /// as many as the value needs (a move from a wider value slides the extra columns out at its end).
    ///
    /// Throws ``AnimationError/notFinite`` for NaN and infinities, ``AnimationError/outOfRange`` when
    /// |value| × 10^decimals reaches 10^15, and ``AnimationError/tooWide`` when the value needs more
    /// columns than the configuration allows.
    public func settle(_ value: Double, after previous: OdometerState?) throws(AnimationError) -> OdometerState {
        guard value.isFinite else {
            throw AnimationError(.notFinite, "odometer value \(value) is not a finite number")
        }
        var unit = 0
        var shown = value
        if configuration.compact {
            while unit < Self.compactUnits.count - 1 && abs(NumberFormat.shownRounding(shown * scale)) >= 1_000 * scale {
                shown /= 1_000
                unit += 1
            }
        }
        let scaledValue = NumberFormat.shownRounding(shown * scale)
        guard abs(scaledValue) < 1e15 else {
            throw AnimationError(.outOfRange, "odometer value \(value) is out of range (at most 15 digits)")
        }
        let scaled = Int64(scaledValue)
        let needed = max(OdometerLeg.changedColumns(from: 0, to: abs(scaled)), configuration.decimals + 1)
        let maximum = configuration.maximumColumns
        guard needed <= maximum else {
            throw AnimationError(.tooWide, "odometer value \(value) needs \(needed) columns, at most \(maximum) are allowed")
        }
        let columns: Int
        switch configuration.columns {
        case .fixed(let count): columns = count
        case .growing: columns = needed
        }
        var digits = DigitPositions(count: columns, repeating: 0)
        var rest = abs(scaled)
        for index in stride(from: columns - 1, through: 0, by: -1) {
            digits[index] = Double(rest % 10)
            rest /= 10
        }
        var target = Double(scaled) / scale
        for _ in 0..<unit { target *= 1_000 }
        return OdometerState(digits: digits, negative: scaled < 0, target: target,
                             width: Double(columns), scaledTarget: scaled, unit: Double(unit))
    }

    public func animation(from start: OdometerState, to end: OdometerState, interval: Double?) -> OdometerAnimation {
        OdometerAnimation(from: start, to: end, interval: interval, maxDuration: configuration.maxDuration)
    }

    /// A glide from where `running` is (or from rest on `start`) to `end`, the columns turning like a mechanical
    /// odometer's; it lasts `interval`, or the article's time for the move bounded by `maxDuration`.
    public func retarget(
        from start: OdometerState, running: (animation: OdometerAnimation, elapsed: Double)?, to end: OdometerState,
        interval: Double?
    ) -> OdometerAnimation {
        let motion = running.map { $0.animation.motion(at: $0.elapsed) }
            ?? (value: Double(start.scaledTarget), velocity: 0, columns: start.digits.count)
        let unit = running.map { $0.animation.state(at: $0.elapsed).unit } ?? start.unit
        return OdometerAnimation(
            gliding: motion.value, velocity: motion.velocity, columns: motion.columns, unit: unit, to: end,
            interval: interval, maxDuration: configuration.maxDuration)
    }
}
