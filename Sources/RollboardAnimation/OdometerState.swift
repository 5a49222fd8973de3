/// What an odometer shows at one instant.
public struct OdometerState: Hashable, Sendable {
    /// One position per column in [0, 10), most significant column first; whole digits at rest.
    public let digits: DigitPositions
    /// Whether a minus sign is shown in front of the columns.
    public let negative: Bool
    /// The value the running animation heads for (the shown value at rest), rounded to the
    /// configured decimal places.
    public let target: Double
    /// The laid-out width in columns: equal to `digits.count` except while added columns slide in
    /// on the left, when it grows continuously from the old count.
    public let width: Double
    /// In compact notation, the position on the unit strip `"" K M B T` (1.5 is half-way from K to M); 0 otherwise.
    public let unit: Double
    /// What the columns show × 10^decimals as an exact integer (in compact notation, the mantissa's).
    let scaledTarget: Int64

    init(digits: DigitPositions, negative: Bool, target: Double, width: Double, scaledTarget: Int64, unit: Double = 0) {
        self.digits = digits
        self.negative = negative
        self.target = target
        self.width = width
        self.scaledTarget = scaledTarget
        self.unit = unit
    }

    func with(digits: DigitPositions, negative: Bool, width: Double, unit: Double? = nil) -> OdometerState {
        OdometerState(
            digits: digits, negative: negative, target: target, width: width, scaledTarget: scaledTarget,
            unit: unit ?? self.unit)
    }
}
