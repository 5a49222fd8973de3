import RollboardAnimation
import Testing

@testable import RollboardCore
@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardAccess
@testable import RollboardHub
@testable import RollboardAPI
@testable import RollboardServer

/// `trend:` on odometers and counters, with explicit times (the wall clock at hub time 0 is 09:00:00).
@Suite("Trend line")
struct TrendLineTests {
    static let nine = ChartTileTests.nine

    @Test("a sparkline is each bucket's last value as hundredths between its lowest and highest, gaps null")
    func seeded() throws {
        // `trend: 1h` takes 5-minute steps: 12 points from 08:00, the newest 08:55–09:00. 08:10 ends on 20, 08:40 on
        // 30, 08:55 on 15: 15 … 30 is 0 … 100.
        let series = ChartTileTests.series([(-3_000, 10), (-2_990, 20), (-1_000, 30), (-10, 15)])
        let line = TrendLine(
            options: TrendOptions(window: 3_600, step: 300), series: series, current: nil, wallOffset: Self.nine)
        #expect(line.member.json == "[null,null,33,null,null,null,null,null,100,null,null,0]")
    }

    @Test("an odometer with a trend carries spark; a change in a later bucket moves it on, with no value invented")
    func odometer() throws {
        let line = TrendLine(
            options: TrendOptions(window: 3_600, step: 300), series: ChartTileTests.series([(-10, 100)]), current: nil,
            wallOffset: Self.nine)
        let configuration = try OdometerOptions(columns: .fixed(4), decimals: 0, prefix: "", suffix: "").odometer()
            .configuration
        var tile = try OdometerTile(tileID: "v", configuration: configuration, value: 100, backlog: 8, trend: line, at: 0)
        #expect(tile.encodedState(at: 0).contains(#""spark":[null,null,null,null,null,null,null,null,null,null,null,50]"#))
        try tile.apply(.value(200, interval: nil, animated: true), at: 601)   // 09:10:01: 09:00 and 09:05 are gaps
        #expect(tile.encodedState(at: 601).contains(#""spark":[null,null,null,null,null,null,null,null,0,null,null,100]"#),
            "\(tile.encodedState(at: 601))")
    }

    static let bad: [(String, String)] = [
        ("id: v\ntype: odometer\ntrend: 90s", #"config/dashboards/demo.yaml: tile "v": trend: must be a stretch like 1h, 24h or 7d (from 2m to 24d), got "90s""#),
        ("id: v\ntype: counter\ntrend: 1m", #"config/dashboards/demo.yaml: tile "v": trend: must be a stretch like 1h, 24h or 7d (from 2m to 24d), got "1m""#),
        ("id: v\ntype: gauge\ntrend: 24h", #"config/dashboards/demo.yaml: tile "v": trend: is an option of odometer tiles, not gauge tiles (gauge options: style, min, max, format, grouping, easing, duration, prefix, suffix, compact, locale, groupSeparator, decimalSeparator, currency, goal, warning, critical, lowerIsBetter, delta, baseline, window, aggregate, compare)"#),
    ]

    @Test("a bad trend is refused naming the field", arguments: bad)
    func refused(yaml: String, message: String) {
        let indented = yaml.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n")
        let text = "id: demo\ntitle: Demo\ngrid: {columns: 4, rows: 3}\ntiles:\n  -\n\(indented)\n"
        do {
            _ = try RollboardConfiguration.parse(serverYAML: nil, dashboards: [("config/dashboards/demo.yaml", text)])
            Issue.record("accepted \(yaml)")
        } catch {
            #expect(error.problems == [message])
        }
    }

    @Test("trend: 24h takes hourly points")
    func day() throws {
        let indented = "    id: v\n    type: odometer\n    trend: 24h"
        let configuration = try RollboardConfiguration.parse(
            serverYAML: nil,
            dashboards: [("config/dashboards/demo.yaml", "id: demo\ntitle: Demo\ngrid: {columns: 4, rows: 3}\ntiles:\n  -\n\(indented)\n")])
        guard case .odometer(let options)? = configuration.dashboard("demo")?.tiles.first?.options else {
            Issue.record("not an odometer")
            return
        }
        #expect(options.trend == TrendOptions(window: 86_400, step: 3_600))
        #expect(options.trend?.count == 24)
    }
}
