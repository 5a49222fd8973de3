import RollboardAnimation
import Testing

@testable import RollboardServer

/// A sparkline (`trend`) follows its metric's committed values, in the buckets of their commit times, whatever the
/// moment a node applies them: a change shown late to a screen that resumed.
@Suite("Trend of committed values")
struct WindowedTrendTests {
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
