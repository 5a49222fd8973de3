/// How a chart moves and what its value range spans.
public struct ChartConfiguration: Hashable, Sendable {
    /// The duration of a chart's moves a dashboard names none for, in seconds.
    public static let defaultDuration = 1.0
    /// The longest a move may take (a producer's `interval` is cut to it) when a dashboard names none, in seconds.
    public static let defaultMaxDuration = 3.0

    /// The number of points (buckets) the chart shows.
    public var count: Int
    /// Seconds a move takes (a slide with its range change, or the newest point following a new value).
    public var duration: Double
    /// The longest a move may take, whatever interval a producer asks for.
    public var maxDuration: Double
    public var easing: CounterEasing
    /// Values the range always spans besides the points: the goal line, and 0 for bars (they grow from it).
    public var anchors: [Double]

    public init(
        count: Int, duration: Double = defaultDuration, maxDuration: Double = defaultMaxDuration,
        easing: CounterEasing = .easeInOut, anchors: [Double] = []
    ) {
        self.count = count
        self.duration = duration
        self.maxDuration = maxDuration
        self.easing = easing
        self.anchors = anchors
    }

    /// Throws ``AnimationError/invalidConfiguration`` for fewer than 2 points or a duration that is not positive or
    /// above ``maxDuration``.
    public func validate() throws(AnimationError) {
        guard count >= 2 else {
            throw AnimationError(.invalidConfiguration, "a chart needs at least 2 points, not \(count)")
        }
        guard duration.isFinite, duration > 0, maxDuration.isFinite, duration <= maxDuration else {
            throw AnimationError(
                .invalidConfiguration,
                "duration (\(duration)) must be above 0 and at most maxDuration (\(maxDuration))")
        }
    }
}
