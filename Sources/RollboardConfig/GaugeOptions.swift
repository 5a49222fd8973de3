package import RollboardAnimation
package import RollboardCore

/// Options of a `gauge` tile: the value on a dial between `min` and `max` (or the goal), its needle or bar easing to
/// each new value, coloured by the tile's thresholds.
public struct GaugeOptions: Sendable, Equatable {
    /// The value at the start of the dial when the tile gives none.
    public static let defaultMin = 0.0
    /// The value at the end of the dial when the tile gives neither `max` nor a goal.
    public static let defaultMax = 100.0

    public var style: GaugeStyle
    public var min: Double
    /// The end of the dial as written; `nil` uses the goal, else ``defaultMax`` (see ``end(goal:)``).
    public var max: Double?
    /// How the value is written under the dial and how the needle moves (format, grouping, easing, duration,
    /// prefix, suffix, compact, locale): a counter's options, with the gauge's own default duration.
    public var number: CounterOptions

    public init(style: GaugeStyle = .arc, min: Double = defaultMin, max: Double? = nil, number: CounterOptions? = nil) {
        self.style = style
        self.min = min
        self.max = max
        self.number = number ?? CounterOptions(duration: GaugeConfiguration.defaultDuration)
    }

    /// The end of the dial: `max`, else the tile's goal, else ``defaultMax``.
    public func end(goal: Double?) -> Double {
        max ?? goal ?? Self.defaultMax
    }

    /// Why the dial cannot span from `min` to its end, naming the field to blame, or `nil`.
    public func rangeProblem(goal: Double?) -> (field: String, problem: String)? {
        let end = end(goal: goal)
        guard end <= min else { return nil }
        let field = max != nil ? "max" : goal != nil ? "goal" : "min"
        let source = max != nil ? "max" : goal != nil ? "goal (the dial's end when there is no max)" : "the default max"
        return (field, "\(source) (\(formatNumber(end))) must be above min (\(formatNumber(min)))")
    }

    /// The gauge these options describe, its dial ending at `end(goal:)`.
    package func gauge(goal: Double?) throws(AnimationError) -> Gauge {
        let counter = try number.counter().configuration
        return try Gauge(configuration: GaugeConfiguration(
            counter: counter, scale: try GaugeScale(min: min, max: end(goal: goal))))
    }

    /// Whether the gauge can write `value` (the counter's rule: finite, small enough for its decimals).
    public func canShow(_ value: Double) -> Bool {
        number.canShow(value)
    }
}
