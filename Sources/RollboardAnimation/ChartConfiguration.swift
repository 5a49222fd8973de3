/// How a chart moves and what its value range spans (checked when a ``Chart`` is made).
public struct ChartConfiguration: Hashable, Sendable {
    /// The duration of a chart's moves a dashboard names none for, in seconds.
    public static let defaultDuration = 1.0
    /// The longest a move may take (a producer's `interval` is cut to it) when a dashboard names none, in seconds.
    public static let defaultMaxDuration = 3.0

    /// The number of points (buckets) the chart shows: at least 2.
    public var count: Int
    /// Seconds a move takes (a slide with its range change, or the newest point following a new value), and the
    /// longest a move may take whatever interval a producer asks for: 0 < duration ≤ maxDuration.
    public var duration, maxDuration: Double
    public var easing: CounterEasing
    /// Values the range always spans besides the points: the goal line, and 0 for bars (they grow from it).
    public var anchors: [Double]

    public init(
        count: Int, duration: Double = defaultDuration, maxDuration: Double = defaultMaxDuration,
        easing: CounterEasing = .easeInOut, anchors: [Double] = []
    ) {
        (self.count, self.duration, self.maxDuration) = (count, duration, maxDuration)
        (self.easing, self.anchors) = (easing, anchors)
    }
}
