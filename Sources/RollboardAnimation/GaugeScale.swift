/// Where a gauge's needle or bar stands for a value: the value's place between `min` and `max`, as a fraction.
public struct GaugeScale: Hashable, Sendable {
    /// The value at the start of the dial (fraction 0).
    public let min: Double
    /// The value at the end of the dial (fraction 1): the tile's `max`, or its goal.
    public let max: Double

    /// A scale from `min` to `max`; throws ``AnimationError/invalidConfiguration`` unless both are finite and
    /// `max` is above `min`.
    public init(min: Double, max: Double) throws(AnimationError) {
        guard min.isFinite, max.isFinite, max > min else {
            throw AnimationError(.invalidConfiguration, "a gauge's max (\(max)) must be a number above its min (\(min))")
        }
        self.min = min
        self.max = max
    }

    /// (value − min) / (max − min), held within [0, 1]: a value past either end pins the needle there.
    public func fraction(of value: Double) -> Double {
        guard value.isFinite else { return 0 }
        let fraction = (value - min) / (max - min)
        return Swift.min(Swift.max(fraction, 0), 1)
    }
}
