import RollboardAnimation
import Testing

@testable import RollboardCore
@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardMetrics
@testable import RollboardAccess
@testable import RollboardHub
@testable import RollboardSources
@testable import RollboardAPI
@testable import RollboardServer

@Suite("Gauge tile")
struct GaugeTileTests {
    func tile(_ yaml: String, value: Double?, at time: Double = 0) throws -> GaugeTile {
        let configuration = try OneTileDashboard.configuration(tile: yaml)
        let tile = try #require(configuration.dashboard("demo")?.tiles.first)
        guard case .gauge(let options) = tile.options else { throw AnimationError.invalidConfiguration }
        let indicator = tile.kpi.isEmpty ? nil : KPIIndicator(
            options: tile.kpi, deltaFormat: try NumberFormat(format: "%.0f", groupSeparator: ",", decimalSeparator: "."))
        return try GaugeTile(
            tileID: tile.id, configuration: options.gauge(goal: tile.kpi.goal).configuration, value: value,
            backlog: configuration.backlog(tile), maxLag: configuration.maxLag(tile), indicator: indicator, at: time)
    }

    @Test("the needle's place travels in ten-thousandths of the dial while the text counts, both ending on the value")
    func wireState() throws {
        var gauge = try tile("id: load\ntype: gauge\nmax: 200\nsuffix: \" %\"", value: 20)
        #expect(gauge.encodedState(at: 0) == #"{"f":1000,"text":"20 %","target":20}"#)
        try gauge.apply(.value(140, interval: nil, animated: true), at: 10)
        #expect(gauge.encodedState(at: 10.5) == #"{"f":4000,"text":"80 %","target":140}"#)
        #expect(gauge.encodedState(at: 11) == #"{"f":7000,"text":"140 %","target":140}"#)
        #expect(gauge.nextMotion(after: 10.5) == 10.5)
        #expect(gauge.nextMotion(after: 11) == nil)
    }

    @Test("a calm screen jumps: mid-move it already shows where the move ends")
    func calm() throws {
        var gauge = try tile("id: load\ntype: gauge", value: 10)
        try gauge.apply(.value(90, interval: nil, animated: true), at: 0)
        #expect(gauge.calmState(at: 0.2).map(TileState.fullJSON) == #"{"f":9000,"text":"90","target":90}"#)
    }

    @Test("without a value the state is null (the page shows —); the first value then moves in")
    func noValue() throws {
        var gauge = try tile("id: load\ntype: gauge", value: nil)
        #expect(gauge.encodedState(at: 0) == "null")
        try gauge.apply(.value(50, interval: nil, animated: true), at: 1)
        #expect(gauge.encodedState(at: 3) == #"{"f":5000,"text":"50","target":50}"#)
    }

    @Test("the dial ends at the goal when there is no max, and the thresholds colour it", arguments: [
        (30.0, "critical", 3000), (60, "warning", 6000), (75, "normal", 7500), (100, "good", 10000), (120, "good", 10000),
    ])
    func towardsTheGoal(value: Double, status: String, place: Int) throws {
        let gauge = try tile("id: sales\ntype: gauge\ngoal: 100\nwarning: 60\ncritical: 40", value: value)
        let state = gauge.encodedState(at: 0)
        #expect(state.hasPrefix("{\"f\":\(place),"), "\(state)")
        #expect(state.contains("\"status\":\"\(status)\""), "\(state)")
    }

    @Test("the lag bound is twice the duration, and a value arriving every 0.2 s still rests within it")
    func lag() throws {
        var gauge = try tile("id: load\ntype: gauge\nduration: 1.5", value: 0)
        for step in 0..<10 { try gauge.apply(.value(Double(step * 10), interval: nil, animated: true), at: Double(step) * 0.2) }
        #expect(gauge.nextMotion(after: 1.8 + 3 + 1e-6) == nil)
        #expect(gauge.encodedState(at: 4.8) == #"{"f":9000,"text":"90","target":90}"#)
    }

    static let badGauges: [(String, String)] = [
        ("id: g\ntype: gauge\nstyle: dial", #"config/dashboards/demo.yaml: tile "g": style: must be one of arc, bar, got "dial""#),
        ("id: g\ntype: gauge\nmin: 10\nmax: 10", #"config/dashboards/demo.yaml: tile "g": max: max (10) must be above min (10)"#),
        ("id: g\ntype: gauge\nmin: 50\ngoal: 40", #"config/dashboards/demo.yaml: tile "g": goal: goal (the dial's end when there is no max) (40) must be above min (50)"#),
        ("id: g\ntype: gauge\nmin: 150", #"config/dashboards/demo.yaml: tile "g": min: the default max (100) must be above min (150)"#),
        ("id: g\ntype: gauge\nmax: lots", #"config/dashboards/demo.yaml: tile "g": max: must be a number, got lots"#),
        ("id: g\ntype: gauge\nduration: 0.1", #"config/dashboards/demo.yaml: tile "g": duration: must be between 0.3 and 60, got 0.1"#),
        ("id: g\ntype: gauge\ncolumns: 4", #"config/dashboards/demo.yaml: tile "g": columns: is an option of odometer tiles, not gauge tiles (gauge options: style, min, max, format, grouping, easing, duration, prefix, suffix, compact, locale, groupSeparator, decimalSeparator, currency, goal, warning, critical, lowerIsBetter, delta, baseline, window, aggregate, compare)"#),
    ]

    @Test("hello carries the dial's ends (the goal as max when there is none), its style and timing; values go to it as metrics")
    func hello() throws {
        let (configuration, json) = try OneTileDashboard.hello(
            tile: "id: sales\ntype: gauge\nstyle: bar\nmin: 10\ngoal: 80", id: "sales")
        #expect(json.contains(#""style":"bar","min":10,"max":80,"format":"%d","easing":"easeInOut","duration":1,"prefix":"","suffix":"","locale":null"#), "\(json)")
        #expect(json.contains(#""queue":"fifo","maxLag":2"#), "\(json)")
        #expect(configuration.catalog.kind(of: "sales") == .metric)
        #expect(configuration.catalog.problem(showing: 1e300, as: "sales") != nil)
    }
}
