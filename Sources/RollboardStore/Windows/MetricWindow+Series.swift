import Foundation
package import RollboardConfig

extension MetricWindow {
    /// The window's number at `now`, or `nil` when the window holds no change (the screen shows "—"). Uses the raw
    /// changes when the window lies within their retention, else the per-minute rollups (then the window's edges are
    /// taken to the minute), else the per-hour ones.
    func value(of series: MetricSeries, at now: Double, limits: SeriesLimits) -> Double? {
        let (start, until) = interval(at: now)
        // A change committed at `now` itself is in the window; `yesterday` ends before today's midnight.
        let end = span == .yesterday ? until : until.nextUp
        let rawFrom = series.newest - limits.retention
        if start >= rawFrom || series.raw.first.map({ $0.time <= start }) == true {
            return reduce(
                series.points(from: start, to: end, limits: limits), before: series, start: start, limits: limits)
        }
        let step: Int64 = start >= series.newest - limits.minuteRetention ? 60 : 3_600
        let buckets = series.buckets(from: start, to: end, step: step)
        return reduce(buckets, series: series, start: start, step: step)
    }

    private func reduce(
        _ points: ArraySlice<MetricSeries.Point>, before series: MetricSeries, start: Double, limits: SeriesLimits
    ) -> Double? {
        guard let last = points.last else { return nil }
        switch aggregate {
        case .last: return last.value
        case .count: return Double(points.count)
        case .min: return points.map(\.value).min()
        case .max: return points.map(\.value).max()
        case .avg: return points.map(\.value).reduce(0, +) / Double(points.count)
        case .sum: return points.compactMap(\.increment).reduce(0, +)
        case .change:
            let before = series.points(from: -.infinity, to: start, limits: limits).last?.value
            return last.value - (before ?? points[points.startIndex].value)
        }
    }

    private func reduce(_ buckets: [MetricSeries.Bucket], series: MetricSeries, start: Double, step: Int64) -> Double? {
        guard let newest = buckets.last else { return nil }
        switch aggregate {
        case .last: return newest.last
        case .count: return Double(buckets.map(\.count).reduce(0, +))
        case .min: return buckets.map(\.min).min()
        case .max: return buckets.map(\.max).max()
        case .avg: return buckets.map(\.valueSum).reduce(0, +) / Double(buckets.map(\.count).reduce(0, +))
        case .sum: return buckets.map(\.incrementSum).reduce(0, +)
        case .change:
            let before = series.buckets(from: -.infinity, to: start, step: step).last?.last
            return newest.last - (before ?? buckets[0].first)
        }
    }
}
