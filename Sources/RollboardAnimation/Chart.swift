/// A chart of a metric's buckets: a new bucket slides the plot left by a step while the value range eases to the new
/// extent, and the newest point follows the value as it changes (``ChartAnimation``).
///
/// A resting state holds exactly the bucket values it was given (posted or aggregated, `nil` for a bucket with no
/// change), so a chart at rest never shows a value that is not one of them; only moves pass through others.
/// (`Value`, `State` and `Animation` are ``ChartPoints``, ``ChartState`` and ``ChartAnimation``.)
public struct Chart: TileAnimator {
    public let configuration: ChartConfiguration

    /// Creates a chart; throws ``AnimationError/invalidConfiguration`` for fewer than 2 points or a duration that is
    /// not above 0 and at most `maxDuration`.
    public init(configuration: ChartConfiguration) throws(AnimationError) {
        let (count, duration, maxDuration) = (configuration.count, configuration.duration, configuration.maxDuration)
        guard count >= 2 else { throw AnimationError(.invalidConfiguration, "a chart needs at least 2 points, not \(count)") }
        guard duration.isFinite, duration > 0, maxDuration.isFinite, duration <= maxDuration else {
            throw AnimationError(
                .invalidConfiguration, "duration (\(duration)) must be above 0 and at most maxDuration (\(maxDuration))")
        }
        self.configuration = configuration
    }

    /// The resting state showing `points`: their values, unslid, over their ``range(of:)``. Throws for a value that is
    /// not finite or a number of points that is not the chart's.
    public func settle(_ points: ChartPoints, after previous: ChartState?) throws(AnimationError) -> ChartState {
        guard points.values.count == configuration.count else {
            throw AnimationError(
                .outOfRange, "the chart has \(configuration.count) points, not \(points.values.count)")
        }
        guard points.values.allSatisfy({ $0?.isFinite ?? true }) else { throw AnimationError.notFinite }
        let range = range(of: points.values)
        return ChartState(values: points.values, shift: 0, low: range.low, high: range.high, newest: points.newest)
    }

    /// The value range the plot spans for `values`: from the smallest to the largest of the known values and the
    /// anchors (goal; 0 for bars); when they are all equal to v, v ± max(1, |v| / 10); 0 … 1 with none at all.
    public func range(of values: [Double?]) -> (low: Double, high: Double) {
        let known = values.compactMap { $0 } + configuration.anchors
        guard let low = known.min(), let high = known.max() else { return (0, 1) }
        if low < high { return (low, high) }
        let pad = max(1, abs(low) / 10)
        return (low - pad, high + pad)
    }

    /// A move of the tile's duration (or `interval`), never longer than `maxDuration`.
    public func animation(from start: ChartState, to end: ChartState, interval: Double?) -> ChartAnimation {
        ChartAnimation(from: start, shown: start, to: end, duration: duration(interval), easing: configuration.easing)
    }

    /// A move to `end` from the resting state the running move heads for: the range and the newest point glide on from
    /// what the running move shows `elapsed` seconds in; its slide, if one runs, completes at once.
    public func retarget(
        from start: ChartState, running: (animation: ChartAnimation, elapsed: Double)?, to end: ChartState,
        interval: Double?
    ) -> ChartAnimation {
        guard let running else { return animation(from: start, to: end, interval: interval) }
        return ChartAnimation(
            from: running.animation.final, shown: running.animation.state(at: running.elapsed), to: end,
            duration: duration(interval), easing: configuration.easing)
    }

    private func duration(_ interval: Double?) -> Double {
        min(interval ?? configuration.duration, configuration.maxDuration)
    }
}
