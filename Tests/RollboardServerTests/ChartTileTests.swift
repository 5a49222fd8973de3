import RollboardAnimation
import Testing

@testable import RollboardCore
@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardMetrics
@testable import RollboardAccess
@testable import RollboardHub
@testable import RollboardAPI
@testable import RollboardServer

/// Chart tiles with explicit times: the wall clock is hub time + `wallOffset`, buckets are whole minutes of it.
@Suite("Chart tile")
struct ChartTileTests {
    /// 2026-11-26T09:00:00Z, a whole minute and hour.
    static let nine = 1_795_683_600.0

    func options(_ yaml: String) throws -> (TileConfiguration, ChartOptions, RollboardConfiguration) {
        let configuration = try OneTileDashboard.configuration(tile: yaml)
        let tile = try #require(configuration.dashboard("demo")?.tiles.first)
        guard case .chart(let options) = tile.options else { throw AnimationError.invalidConfiguration }
        return (tile, options, configuration)
    }

    /// A chart tile built from `series` at hub time 0, the wall clock at `nine` then.
    func tile(_ yaml: String, series: MetricSeries = MetricSeries(), current: StoredMetric? = nil) throws -> ChartTile {
        let (tile, options, configuration) = try options(yaml)
        return try ChartTile(
            tileID: tile.id, chart: Chart(configuration: options.configuration(goal: tile.kpi.goal)), options: options,
            seed: ChartTile.Seed(series: series, current: current, options: options), wallOffset: Self.nine,
            indicator: nil, backlog: configuration.backlog(tile), maxLag: configuration.maxLag(tile),
            policy: tile.queue ?? .fifo, at: 0)
    }

    static func series(_ changes: [(offset: Double, value: Double)]) -> MetricSeries {
        var series = MetricSeries()
        for (index, change) in changes.enumerated() {
            series.add(
                StoredMetric(id: "level", value: change.value, seq: UInt64(index + 1), updatedAt: nine + change.offset),
                limits: SeriesLimits())
        }
        return series
    }

    static let fiveMinutes = "id: level\ntype: chart\nwindow: \"last 5m\"\nstep: 1m\neasing: linear"

    @Test("a chart built from the series shows each minute's last value, a minute without a change as a gap")
    func seededFromSeries() throws {
        // 08:55 and 08:58 have no change; 08:56 ends on 7, 08:57 on 9, 08:59 on 4.
        let series = Self.series([(-240, 5), (-200, 7), (-150, 9), (-30, 4)])
        let chart = try tile(Self.fiveMinutes, series: series)
        #expect(chart.encodedState(at: 0)
            == #"{"pts":[null,7,9,null],"l":4,"s":0,"lo":4,"hi":9,"text":"4","target":4,"n":29928059}"#)
    }

    @Test("per-bucket sums count what each bucket added to a running total, from 0 before the first change")
    func seededSums() throws {
        let series = Self.series([(-200, 3), (-190, 5), (-100, 6), (-30, 10)])
        let chart = try tile(Self.fiveMinutes + "\naggregate: sum", series: series)
        #expect(chart.encodedState(at: 0)
            == #"{"pts":[null,5,null,1],"l":4,"s":0,"lo":1,"hi":5,"text":"4","target":4,"n":29928059}"#)
    }

    @Test("a change in the next minute slides the plot one step over the move; at rest only posted values show")
    func slides() throws {
        var chart = try tile(Self.fiveMinutes, series: Self.series([(-30, 10)]))
        try chart.apply(.value(20, interval: nil, animated: true), at: 45)   // 09:00:45, the next minute
        // Half way: slid half a step, the newest point half way from 10, the range half way from 9 … 11 to 10 … 20.
        #expect(chart.encodedState(at: 45.5)
            == #"{"pts":[null,null,null,null,10],"l":15,"s":500,"lo":9.5,"hi":15.5,"text":"20","target":20,"n":29928060}"#)
        #expect(chart.encodedState(at: 46)
            == #"{"pts":[null,null,null,10],"l":20,"s":0,"lo":10,"hi":20,"text":"20","target":20,"n":29928060}"#)
        #expect(chart.nextMotion(after: 46) == nil)
        #expect(chart.calmState(at: 45.1).map(TileState.fullJSON) == chart.encodedState(at: 46))
    }

    @Test("on the wire a 120-point chart's slide sends its points twice (at the start and the end); the frames between carry only the slide, the range and the newest point")
    func compactFrames() throws {
        let yaml = "id: level\ntype: chart\nwindow: \"last 2h\"\nstep: 1m\ndecimals: 1"
        let history: [(offset: Double, value: Double)] = (0..<120).map { minute in
            let offset = Double(60 * minute - 7_170)
            return (offset, 100 + Double(minute % 7) * 3.5)
        }
        var chart = try tile(yaml, series: Self.series(history))
        var previous = chart.state(at: 0)
        try chart.apply(.value(131.5, interval: nil, animated: true), at: 30)   // the next minute: a slide of 1 s
        var sizes: [Int] = []
        var withPoints = 0
        for frame in 0...30 {
            let state = chart.state(at: 30 + Double(frame) / 30)
            let patch = try #require(TileState.patch(from: previous, to: state))
            if patch.text.contains("\"pts\"") { withPoints += 1 } else { sizes.append(patch.text.utf8.count) }
            previous = state
        }
        #expect(withPoints == 2, "the point list goes out when the slide starts and when it ends")
        #expect(sizes.count == 29 && sizes.allSatisfy { $0 <= 60 }, "\(sizes)")
    }

    @Test("changes in later minutes with none between leave gaps, never a value in between")
    func gapsStayGaps() throws {
        var chart = try tile(Self.fiveMinutes, series: Self.series([(-30, 10)]))
        try chart.apply(.value(30, interval: nil, animated: true), at: 150)   // 09:02:30: 09:00 and 09:01 are gaps
        #expect(chart.encodedState(at: 160)
            == #"{"pts":[null,10,null,null],"l":30,"s":0,"lo":10,"hi":30,"text":"30","target":30,"n":29928062}"#)
    }

    @Test("a change in the same minute moves only the newest point; for sums it adds to the bucket")
    func sameMinute() throws {
        var sums = try tile(Self.fiveMinutes + "\naggregate: sum", series: Self.series([(-50, 100), (-20, 103)]))
        try sums.apply(.value(110, interval: nil, animated: true), at: 1)   // 09:00:01: a new minute, 7 added
        try sums.apply(.value(112, interval: nil, animated: true), at: 30)  // 2 more in the same minute
        #expect(sums.encodedState(at: 40)
            == #"{"pts":[null,null,null,103],"l":9,"s":0,"lo":9,"hi":103,"text":"9","target":9,"n":29928060}"#)
    }

    @Test("without a value the chart is null (—); the first value is one point")
    func noValue() throws {
        var chart = try tile(Self.fiveMinutes)
        #expect(chart.encodedState(at: 0) == "null")
        try chart.apply(.value(7, interval: nil, animated: true), at: 5)
        #expect(chart.encodedState(at: 5) == #"{"pts":[null,null,null,null],"l":7,"s":0,"lo":6,"hi":8,"text":"7","target":7,"n":29928060}"#)
    }

    @Test("a producer's interval is cut to maxDuration, and the lag bound is twice maxDuration")
    func maxDuration() throws {
        var chart = try tile(Self.fiveMinutes + "\nmaxDuration: 2\nduration: 1", series: Self.series([(-30, 10)]))
        try chart.apply(.value(20, interval: 30, animated: true), at: 0)
        #expect(chart.nextMotion(after: 1.99) == 1.99)
        #expect(chart.nextMotion(after: 2) == nil)
        let (tile, _, configuration) = try options(Self.fiveMinutes + "\nmaxDuration: 2\nduration: 1")
        #expect(configuration.maxLag(tile) == 4)
    }

    static let badCharts: [(String, String)] = [
        ("id: c\ntype: chart\nstyle: pie", #"config/dashboards/demo.yaml: tile "c": style: must be one of line, area, bars, got "pie""#),
        ("id: c\ntype: chart\nwindow: today", #"config/dashboards/demo.yaml: tile "c": window: a chart's window is "last N" with m, h or d (like "last 24h"), got "today""#),
        ("id: c\ntype: chart\nstep: 1m", #"config/dashboards/demo.yaml: tile "c": step: gives 1440 points over the window; at most 120 (take a step of at least 12 minutes)"#),
        ("id: c\ntype: chart\nstep: 7m", #"config/dashboards/demo.yaml: tile "c": step: must divide the window (86400 s) evenly, got 420 s"#),
        ("id: c\ntype: chart\nstep: 90s", #"config/dashboards/demo.yaml: tile "c": step: must be a number of minutes, hours or days like 5m, 1h or 1d, got "90s""#),
        ("id: c\ntype: chart\nwindow: \"last 7d\"\nstep: 90m", #"config/dashboards/demo.yaml: tile "c": step: must be a whole number of minutes (of hours from 1h on), got 5400 s"#),
        ("id: c\ntype: chart\nwindow: \"last 1m\"", #"config/dashboards/demo.yaml: tile "c": window: needs a step (no step of 1m, 2m, 5m, 10m, 15m, 30m, 60m, 120m, 180m, 360m, 720m, 1440m divides it into 2 to 120 points)"#),
        ("id: c\ntype: chart\naggregate: avg", #"config/dashboards/demo.yaml: tile "c": aggregate: must be one of last, sum, got "avg""#),
        ("id: c\ntype: chart\nduration: 5", #"config/dashboards/demo.yaml: tile "c": duration: must be at most maxDuration (3 s), got 5"#),
    ]

    @Test("a day with no step takes 15-minute steps (96 points); hello carries the chart's options")
    func defaultsAndHello() throws {
        let (tile, options, configuration) = try options("id: c\ntype: chart\nstyle: bars\ngoal: 10")
        #expect(options.step == 900 && options.count == 96 && options.window == 86_400)
        let json = configuration.json(tile).serialized
        #expect(json.contains(#""style":"bars","points":96,"step":900,"window":86400,"aggregate":"last""#), "\(json)")
        #expect(configuration.catalog.kind(of: "c") == .metric)
        #expect(configuration.catalog.problem(showing: 1e16, as: "c") != nil)
    }
}
