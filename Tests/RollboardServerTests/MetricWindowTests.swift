import Foundation
import Testing

@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardAccess
@testable import RollboardHub
@testable import RollboardAPI

/// Windows over a metric's series in Europe/Berlin, with explicit instants, across both daylight-saving changes of
/// 2026 (29 March: 23-hour day; 25 October: 25-hour day): where a window starts, when it resets, the compared
/// moment, and each aggregate.
@Suite("Metric windows")
struct MetricWindowTests {
    static let berlin = TimeZone(identifier: "Europe/Berlin")!

    static func window(_ span: WindowSpan, _ aggregate: WindowAggregate = .last) -> MetricWindow {
        MetricWindow(span: span, aggregate: aggregate, timeZone: berlin)
    }

    /// Instants: 2026-03-29T10:00 Berlin (CEST) and its neighbours.
    static let march29At10 = 1_774_771_200.0
    static let march29Midnight = 1_774_738_800.0  // 2026-03-28T23:00:00Z
    static let march30Midnight = 1_774_821_600.0  // 2026-03-29T22:00:00Z
    static let october25At10 = 1_792_918_800.0
    static let october25Midnight = 1_792_879_200.0  // 2026-10-24T22:00:00Z
    static let october26Midnight = 1_792_969_200.0  // 2026-10-25T23:00:00Z

    @Test("today starts at local midnight and resets at the next one: 23 hours on 29 March, 25 on 25 October")
    func todayAcrossDaylightSaving() {
        let today = Self.window(.today)
        #expect(today.interval(at: Self.march29At10) == (Self.march29Midnight, Self.march29At10))
        #expect(today.nextReset(after: Self.march29At10) == Self.march30Midnight)
        #expect(Self.march30Midnight - Self.march29Midnight == 23 * 3_600)
        #expect(today.interval(at: Self.october25At10).start == Self.october25Midnight)
        #expect(today.nextReset(after: Self.october25At10) == Self.october26Midnight)
        #expect(Self.october26Midnight - Self.october25Midnight == 25 * 3_600)
        // Half an hour before the 25-hour day ends it is still 25 October.
        #expect(today.interval(at: 1_792_967_400).start == Self.october25Midnight)
        // At the reset instant the new day has begun.
        #expect(today.interval(at: Self.march30Midnight).start == Self.march30Midnight)
    }

    @Test("yesterday is the whole previous local day; this week starts on Monday and this month on the 1st")
    func calendarPeriods() {
        let yesterday = Self.window(.yesterday).interval(at: Self.march30Midnight + 36_000)
        #expect(yesterday == (Self.march29Midnight, Self.march30Midnight))
        #expect(Self.window(.thisWeek).interval(at: Self.march29At10).start == 1_774_220_400)  // Mon 23 March 00:00 CET
        #expect(Self.window(.thisWeek).nextReset(after: Self.march29At10) == Self.march30Midnight)
        #expect(Self.window(.thisMonth).interval(at: Self.march29At10).start == 1_772_319_600)  // 1 March 00:00 CET
        #expect(Self.window(.thisMonth).nextReset(after: Self.march29At10) == 1_774_994_400)  // 1 April 00:00 CEST
        #expect(Self.window(.last(900)).interval(at: Self.march29At10) == (Self.march29At10 - 900, Self.march29At10))
        #expect(Self.window(.last(900)).nextReset(after: Self.march29At10) == nil)
    }

    @Test("compare looks back to the same local time of the day before, or of a week before, across the change")
    func comparedMoments() {
        let today = Self.window(.today)
        #expect(today.comparedMoment(.yesterday, of: Self.march29At10) == 1_774_688_400)  // 28 March 10:00 CET
        #expect(Self.march29At10 - 1_774_688_400 == 23 * 3_600)
        #expect(today.comparedMoment(.yesterday, of: Self.october25At10) == 1_792_828_800)  // 24 October 10:00 CEST
        #expect(Self.october25At10 - 1_792_828_800 == 25 * 3_600)
        #expect(today.comparedMoment(.lastWeek, of: Self.march29At10) == 1_774_170_000)  // 22 March 10:00 CET
    }

    static func series(_ changes: [(time: Double, value: Double, increment: Double?)]) -> MetricSeries {
        var series = MetricSeries()
        for (index, change) in changes.enumerated() {
            var metric = StoredMetric(id: "orders", value: change.value, seq: UInt64(index + 1), updatedAt: change.time)
            metric.increment = change.increment
            series.add(metric, limits: SeriesLimits())
        }
        return series
    }

    /// Changes around the 23-hour day: one the evening before, three that day (two increments), checked at 10:00.
    static let spring = series([
        (march29Midnight - 600, 100, nil), (march29Midnight + 60, 104, 4), (march29Midnight + 7_200, 90, nil),
        (march29At10 - 60, 96, 6),
    ])

    static let aggregates: [(WindowAggregate, Double?)] = [
        (.last, 96), (.sum, 10), (.count, 3), (.min, 90), (.max, 104), (.avg, 290.0 / 3), (.change, -4),
    ]

    @Test("each aggregate of today, from the raw changes since local midnight", arguments: aggregates)
    func aggregatesOfToday(aggregate: WindowAggregate, expected: Double?) {
        #expect(
            Self.window(.today, aggregate).value(of: Self.spring, at: Self.march29At10, limits: SeriesLimits())
                == expected)
    }

    static let monthAggregates: [(WindowAggregate, Double?)] = [
        (.last, 96), (.sum, 10), (.count, 5), (.min, 90), (.max, 104), (.avg, 97.2), (.change, -4),
    ]

    @Test(
        "each aggregate of this month, from the per-minute rollups once the month reaches past the raw retention",
        arguments: monthAggregates)
    func aggregatesFromRollups(aggregate: WindowAggregate, expected: Double?) {
        // On 31 March at 12:00 the changes of 29 March are past their 48 raw hours; the minute rollups hold them,
        // and the one of 28 March 23:50 (this month too).
        let march31At12 = 1_774_951_200.0
        var series = Self.spring
        var now = StoredMetric(id: "orders", value: 96, seq: 99, updatedAt: march31At12)
        now.increment = 0
        series.add(now, limits: SeriesLimits())
        #expect(series.points(from: Self.march29Midnight, to: march31At12, limits: SeriesLimits()).isEmpty)
        let month = Self.window(.thisMonth, aggregate)
        #expect(month.value(of: series, at: march31At12, limits: SeriesLimits()) == expected)
    }

    @Test("a window without a change in it has no value (a screen shows —)")
    func emptyWindow() {
        let recent = Self.window(.last(300), .sum)
        #expect(recent.value(of: Self.spring, at: Self.march29At10 + 600, limits: SeriesLimits()) == nil)
        // Yesterday held one change, a value: its sum of increments is 0, not "no value".
        #expect(Self.window(.yesterday, .sum).value(of: Self.spring, at: Self.march29At10, limits: SeriesLimits()) == 0)
        #expect(
            Self.window(.yesterday, .last).value(of: Self.spring, at: Self.march29At10, limits: SeriesLimits()) == 100)
    }

    static let spans: [(String, WindowSpan)] = [
        ("today", .today), ("yesterday", .yesterday), ("thisWeek", .thisWeek), ("thisMonth", .thisMonth),
        ("last 15m", .last(900)), ("last 24h", .last(86_400)), ("last 7d", .last(604_800)),
    ]

    @Test("windows are read from the names tiles use", arguments: spans)
    func names(text: String, span: WindowSpan) {
        #expect(WindowSpan(text) == span)
    }

    @Test(
        "a misspelt window is refused",
        arguments: ["Today", "last", "last 15", "last 0m", "last 15s", "last -5m", "week"])
    func badNames(text: String) {
        #expect(WindowSpan(text) == nil)
    }
}
