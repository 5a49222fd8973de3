import RollboardAnimation
import Testing

@testable import RollboardCore
@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardRedisLog
@testable import RollboardAccess
@testable import RollboardHub
@testable import RollboardSources
@testable import RollboardAPI
@testable import RollboardServer

/// A sparkline (`trend`) follows its metric's committed values, in the buckets of their commit times, whatever the
/// tile's number shows: a window's sum, or a change shown late to a screen that resumed.
@Suite("Trend of committed values")
struct WindowedTrendTests {
    static let start = WindowedTileTests.march28Midnight + 7_200  // 02:00 in Berlin
    static let hourly = TrendOptions(window: 86_400, step: 3_600)

    /// A `last 15m` sum counter with `trend: 24h` at hub time 0 (`start` on the wall clock); the metric stood at
    /// 10,000 half an hour before.
    static func windowedCounter(_ feed: SeriesFeed) throws -> WindowedTile<Counter> {
        feed.commit(value: 10_000, at: start - 1_800)
        let windowed = WindowedValue(
            window: MetricWindow(span: .last(900), aggregate: .sum, timeZone: WindowedTileTests.berlin), compare: nil,
            limits: feed.limits, series: { feed.series }, at: start)
        let trend = TrendLine(options: hourly, series: feed.series, current: nil, wallOffset: start)
        let inner = try CounterTile(
            tileID: "t", configuration: CounterConfiguration(duration: 1, easing: .linear, format: NumberFormat(format: "%.0f")),
            value: windowed.value, backlog: 8, trend: trend, at: 0)
        return WindowedTile(inner: inner, windowed: windowed, indicator: nil, wallOffset: start, at: 0)
    }

    @Test("a windowed tile's sparkline shows the metric's values, not the window's sums, and an age-out adds no point")
    func windowedTrendFollowsTheMetric() throws {
        let feed = SeriesFeed()
        var tile = try Self.windowedCounter(feed)
        try tile.apply(feed.commit(increment: 5, at: Self.start + 60), at: 60)
        let second = feed.commit(increment: 7, at: Self.start + 120)
        try tile.apply(second, at: 120)
        #expect(tile.windowed.value == 12)
        let points = try #require(tile.inner.trend?.points)
        #expect(points.values.suffix(2) == [10_000, 10_012], "01:00–02:00 ends on 10,000, 02:00–03:00 on 10,012")
        try tile.advanceWindow(at: 961)  // the first increment ages out: the window shows 7
        #expect(tile.windowed.value == 7)
        #expect(tile.inner.trend?.points == points)
        try tile.apply(second, at: 962)
        #expect(tile.inner.trend?.points == points, "a change seen twice is one point")
    }

    @Test("a change shown late (a screen that resumed) goes in the bucket of its commit time, as on the hub")
    func bucketOfTheCommitTime() throws {
        let nine = ChartTileTests.nine
        let line = TrendLine(
            options: TrendOptions(window: 3_600, step: 300), series: ChartTileTests.series([(-10, 100)]), current: nil,
            wallOffset: nine)
        let configuration = try OdometerOptions(columns: .fixed(4), decimals: 0, prefix: "", suffix: "").odometer()
            .configuration
        var hub = try OdometerTile(tileID: "v", configuration: configuration, value: 100, backlog: 8, trend: line, at: 0)
        var resumed = hub
        let stored = MetricSeries.Point(seq: 2, time: nine + 10, value: 200)  // 09:00:10
        try hub.apply(.value(200, interval: nil, animated: true, stored: stored), at: 10)
        try resumed.apply(.value(200, interval: nil, animated: true, stored: stored), at: 700)  // 09:11:40
        #expect(resumed.trend == hub.trend)
        #expect(resumed.trend?.member.json == "[null,null,null,null,null,null,null,null,null,null,0,100]")
    }
}
