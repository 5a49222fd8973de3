package import RollboardConfig

/// What a window holds, kept so that one more change updates it in constant time: how many changes, the sum of their
/// increments and of their values, the smallest, largest and newest value, and what `change` subtracts (the value
/// before the window, else its first). Its numbers are ``MetricWindow/value(of:at:limits:)``'s for the same changes.
struct WindowTally: Equatable, Sendable {
    private(set) var count = 0
    private(set) var incrementSum = 0.0
    private(set) var valueSum = 0.0
    private(set) var min: Double?
    private(set) var max: Double?
    private(set) var last: Double?
    /// The value `change` counts from.
    private(set) var before: Double?

    /// An empty window after `before`, the metric's value when it began (`nil`: none yet).
    init(before: Double? = nil) {
        self.before = before
    }

    /// The tally of `window` at `now` over `series`, read off the window's own answers (so raw changes or rollups are
    /// chosen exactly as there).
    init(_ window: MetricWindow, of series: MetricSeries, at now: Double, limits: SeriesLimits) {
        func reduced(_ aggregate: WindowAggregate) -> Double? {
            var window = window
            window.aggregate = aggregate
            return window.value(of: series, at: now, limits: limits)
        }
        guard let last = reduced(.last), let count = reduced(.count) else {
            // No change in the window: `change` will count from the newest value before it.
            self.init(before: series.raw.last?.value)
            return
        }
        self.init()
        self.count = Int(count)
        self.last = last
        min = reduced(.min)
        max = reduced(.max)
        incrementSum = reduced(.sum) ?? 0
        valueSum = (reduced(.avg) ?? 0) * count
        before = reduced(.change).map { last - $0 }
    }

    /// Adds one change.
    mutating func add(_ point: MetricSeries.Point) {
        if count == 0, before == nil { before = point.value }
        count += 1
        incrementSum += point.increment ?? 0
        valueSum += point.value
        min = Swift.min(min ?? point.value, point.value)
        max = Swift.max(max ?? point.value, point.value)
        last = point.value
    }

    /// The window's number under `aggregate`, `nil` when it holds no change.
    func value(_ aggregate: WindowAggregate) -> Double? {
        guard count > 0, let last else { return nil }
        switch aggregate {
        case .last: return last
        case .sum: return incrementSum
        case .count: return Double(count)
        case .min: return min
        case .max: return max
        case .avg: return valueSum / Double(count)
        case .change: return last - (before ?? last)
        }
    }
}
