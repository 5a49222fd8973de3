import Foundation

/// A tile's window over its metric's series, computed in the dashboard's time zone: where the window starts and ends
/// at a given moment (calendar periods start at local midnight, on Monday for weeks and on the 1st for months, and
/// are as long as the calendar makes them: 23 or 25 hours across a daylight-saving change), when it next resets, the
/// number it shows, and the same moment of the period it is compared with (`compare`).
///
/// Pure: every answer follows from the series, the time zone and the instant given, so the hub computes it on its
/// injected clock and tests pass explicit instants.
struct MetricWindow: Sendable, Equatable {
    enum Comparison: String, Sendable {
        case yesterday, lastWeek
    }

    var span: WindowSpan
    var aggregate: WindowAggregate
    var timeZone: TimeZone

    init(span: WindowSpan, aggregate: WindowAggregate, timeZone: TimeZone) {
        self.span = span
        self.aggregate = aggregate
        self.timeZone = timeZone
    }

    private var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        calendar.firstWeekday = 2
        calendar.minimumDaysInFirstWeek = 4
        return calendar
    }

    /// The window at `now`, `start ..< end` in seconds since 1970: a calendar period's whole extent for `yesterday`,
    /// up to `now` for the others.
    func interval(at now: Double) -> (start: Double, end: Double) {
        let date = Date(timeIntervalSince1970: now)
        let calendar = calendar
        func period(_ component: Calendar.Component, of date: Date) -> DateInterval {
            guard let interval = calendar.dateInterval(of: component, for: date) else {
                preconditionFailure("the Gregorian calendar has a \(component) around every date")
            }
            return interval
        }
        switch span {
        case .today:
            return (period(.day, of: date).start.timeIntervalSince1970, now)
        case .yesterday:
            let today = period(.day, of: date).start
            let yesterday = period(.day, of: today.addingTimeInterval(-1))
            return (yesterday.start.timeIntervalSince1970, today.timeIntervalSince1970)
        case .thisWeek:
            return (period(.weekOfYear, of: date).start.timeIntervalSince1970, now)
        case .thisMonth:
            return (period(.month, of: date).start.timeIntervalSince1970, now)
        case .last(let seconds):
            return (now - seconds, now)
        }
    }

    /// When the window next starts afresh after `now` (the next local midnight, Monday or 1st), or `nil` for a
    /// sliding `last …` window, which changes only as its changes age out.
    func nextReset(after now: Double) -> Double? {
        let component: Calendar.Component
        switch span {
        case .today, .yesterday: component = .day
        case .thisWeek: component = .weekOfYear
        case .thisMonth: component = .month
        case .last: return nil
        }
        return calendar.dateInterval(of: component, for: Date(timeIntervalSince1970: now))?.end.timeIntervalSince1970
    }

    /// The same moment `comparison` looks back to: the same local time of the day before, or of the same weekday a
    /// week before (a local time a daylight-saving change skipped maps to the nearest later one).
    func comparedMoment(_ comparison: Comparison, of now: Double) -> Double {
        let days = comparison == .yesterday ? -1 : -7
        let date = calendar.date(byAdding: .day, value: days, to: Date(timeIntervalSince1970: now))
        return date?.timeIntervalSince1970 ?? now + Double(days) * 86_400
    }

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
