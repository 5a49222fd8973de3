package import Foundation

/// A tile's window over its metric's series, computed in the dashboard's time zone: where the window starts and ends
/// at a given moment (calendar periods start at local midnight, on Monday for weeks and on the 1st for months, and
/// are as long as the calendar makes them: 23 or 25 hours across a daylight-saving change), when it next resets, the
/// number it shows, and the same moment of the period it is compared with (`compare`).
///
/// Pure: every answer follows from the series, the time zone and the instant given, so the hub computes it on its
/// injected clock and tests pass explicit instants.
package struct MetricWindow: Sendable, Equatable {
    package enum Comparison: String, Sendable {
        case yesterday, lastWeek
    }

    package var span: WindowSpan
    package var aggregate: WindowAggregate
    var timeZone: TimeZone

    package init(span: WindowSpan, aggregate: WindowAggregate, timeZone: TimeZone) {
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
    package func interval(at now: Double) -> (start: Double, end: Double) {
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
    package func nextReset(after now: Double) -> Double? {
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
    package func comparedMoment(_ comparison: Comparison, of now: Double) -> Double {
        let days = comparison == .yesterday ? -1 : -7
        let date = calendar.date(byAdding: .day, value: days, to: Date(timeIntervalSince1970: now))
        return date?.timeIntervalSince1970 ?? now + Double(days) * 86_400
    }
}
