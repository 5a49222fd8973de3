import Foundation
import RollboardAnimation
import Testing

@testable import RollboardCore
@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardAccess
@testable import RollboardHub
@testable import RollboardAPI
@testable import RollboardServer

private let file = "config/dashboards/demo.yaml"

/// The tile of a one-tile dashboard written in `yaml`, as the configuration reader makes it.
private func configured(_ yaml: String) throws -> (TileConfiguration, RollboardConfiguration) {
    let indented = yaml.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n")
    let dashboard = "id: demo\ntitle: Demo\ngrid: {columns: 4, rows: 3}\ntiles:\n  -\n\(indented)\n"
    let configuration = try RollboardConfiguration.parse(serverYAML: nil, dashboards: [(file, dashboard)])
    return (try #require(configuration.dashboard("demo")?.tiles.first), configuration)
}

/// The member `name` of a tile's JSON state.
private func member(_ name: String, of json: String) throws -> Any? {
    let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
    return object?[name]
}

/// Every tile that writes a number writes the posted value rounded to what it shows, half away from zero, the way
/// docs/animation.md says: never truncated (0.9 is not 0), never "−0".
@Suite("Shown numbers are rounded half away from zero")
struct ShownRoundingTests {
    /// A value and the whole number a tile with no decimal places shows for it (U+2212 is the minus sign).
    static let wholeNumbers: [(Double, String)] = [
        (0.5, "1"), (1.5, "2"), (2.5, "3"), (-0.5, "\u{2212}1"), (-2.5, "\u{2212}3"), (2103.5, "2,104"),
        (0.9, "1"), (-0.9, "\u{2212}1"), (0.4, "0"), (-0.4, "0"), (-0.0, "0"), (-1.5, "\u{2212}2"), (2103.4, "2,103"),
    ]

    @Test("a %d counter rounds the posted value half away from zero", arguments: wholeNumbers)
    func counter(value: Double, text: String) throws {
        let (tile, _) = try configured("id: orders\ntype: counter\nformat: \"%d\"\ngrouping: \"#,##0\"")
        guard case .counter(let options) = tile.options else { throw AnimationError.invalidConfiguration }
        var counter = try CounterTile(tileID: tile.id, configuration: options.counter().configuration, value: 7, backlog: 8, at: 0)
        try counter.apply(.value(value, interval: nil, animated: true), at: 1)
        #expect(try member("text", of: counter.encodedState(at: 100)) as? String == text)
        var still = try CounterTile(tileID: tile.id, configuration: options.counter().configuration, value: value, backlog: 8, at: 0)
        try still.apply(.value(value, interval: nil, animated: false), at: 1)
        #expect(try member("text", of: still.encodedState(at: 1)) as? String == text)
    }

    @Test("a gauge writes its value under the dial rounded half away from zero", arguments: wholeNumbers)
    func gauge(value: Double, text: String) throws {
        let (tile, configuration) = try configured("id: load\ntype: gauge\nmin: -3000\nmax: 3000\ngrouping: \"#,##0\"")
        guard case .gauge(let options) = tile.options else { throw AnimationError.invalidConfiguration }
        var gauge = try GaugeTile(
            tileID: tile.id, configuration: options.gauge(goal: nil).configuration, value: 0,
            backlog: configuration.backlog(tile), at: 0)
        try gauge.apply(.value(value, interval: nil, animated: true), at: 1)
        #expect(try member("text", of: gauge.encodedState(at: 100)) as? String == text)
    }

    @Test("a leaderboard writes each score rounded half away from zero", arguments: wholeNumbers)
    func leaderboard(value: Double, text: String) throws {
        let (tile, configuration) = try configured("id: sales\ntype: leaderboard\nsize: 3\ngrouping: \"#,##0\"")
        guard case .leaderboard(let options) = tile.options else { throw AnimationError.invalidConfiguration }
        var board = try LeaderboardTile(
            tileID: tile.id, leaderboard: options.leaderboard(), entries: [LeaderboardEntry(name: "Ann", value: 1)],
            backlog: configuration.backlog(tile), maxLag: nil, policy: .fifo, at: 0)
        try board.apply(.leaderboard([LeaderboardEntry(name: "Ann", value: value)]), at: 1)
        #expect(try member("t", of: board.encodedState(at: 100)) as? [String] == [text])
    }

    @Test("a chart writes its newest point rounded half away from zero", arguments: wholeNumbers)
    func chart(value: Double, text: String) throws {
        let (tile, configuration) = try configured("id: level\ntype: chart\nwindow: \"last 5m\"\nstep: 1m")
        guard case .chart(let options) = tile.options else { throw AnimationError.invalidConfiguration }
        var chart = try ChartTile(
            tileID: tile.id, chart: Chart(configuration: options.configuration(goal: nil)), options: options, seed: nil,
            wallOffset: 1_795_683_600, indicator: nil, backlog: configuration.backlog(tile), maxLag: nil, policy: .fifo,
            at: 0)
        try chart.apply(.value(value, interval: nil, animated: true), at: 1)
        #expect(try member("text", of: chart.encodedState(at: 100)) as? String == text)
    }

    @Test("an odometer's columns rest on the value rounded half away from zero, and never on −0", arguments: wholeNumbers)
    func odometer(value: Double, text: String) throws {
        let (tile, _) = try configured("id: visits\ntype: odometer\nmaxColumns: 6")
        guard case .odometer(let options) = tile.options else { throw AnimationError.invalidConfiguration }
        var odometer = try OdometerTile(tileID: tile.id, configuration: options.odometer().configuration, value: 3, backlog: 8, at: 0)
        try odometer.apply(.value(value, interval: nil, animated: true), at: 1)
        let state = odometer.encodedState(at: 100)
        let digits = try #require(member("d", of: state) as? [Int]).map { String($0 / 1000) }.joined()
        let negative = try #require(member("negative", of: state) as? Bool)
        let shown = (negative ? "\u{2212}" : "") + String(digits.drop { $0 == "0" }.isEmpty ? "0" : digits.drop { $0 == "0" })
        #expect(shown == text.replacingOccurrences(of: ",", with: ""))
    }

    /// A value and what a two-place counter shows: ties at the last place, including ones a binary double holds only
    /// approximately (2.675 is 2.67499999999999982236431605997495353221893310546875).
    static let twoPlaces: [(Double, String)] = [
        (0.125, "0.13"), (-0.125, "\u{2212}0.13"), (0.375, "0.38"), (2.675, "2.68"), (1.005, "1.01"), (-0.004, "0.00"),
        (-0.005, "\u{2212}0.01"), (2103.455, "2,103.46"),
    ]

    @Test("a %.2f counter rounds ties at its last place away from zero, even where the double misses the tie",
          arguments: twoPlaces)
    func twoPlaceCounter(value: Double, text: String) throws {
        let (tile, _) = try configured("id: revenue\ntype: counter\nformat: \"%.2f\"\ngrouping: \"#,##0.00\"")
        guard case .counter(let options) = tile.options else { throw AnimationError.invalidConfiguration }
        let counter = try CounterTile(tileID: tile.id, configuration: options.counter().configuration, value: value, backlog: 8, at: 0)
        #expect(try member("text", of: counter.encodedState(at: 0)) as? String == text)
    }

    @Test("a two-place odometer rests on ties at its last place rounded away from zero", arguments: twoPlaces)
    func twoPlaceOdometer(value: Double, text: String) throws {
        let (tile, _) = try configured("id: cash\ntype: odometer\ndecimals: 2\nmaxColumns: 8")
        guard case .odometer(let options) = tile.options else { throw AnimationError.invalidConfiguration }
        let odometer = try OdometerTile(tileID: tile.id, configuration: options.odometer().configuration, value: value, backlog: 8, at: 0)
        let state = odometer.encodedState(at: 0)
        var digits = try #require(member("d", of: state) as? [Int]).map { String($0 / 1000) }.joined()
        digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -2))
        let negative = try #require(member("negative", of: state) as? Bool)
        #expect((negative ? "\u{2212}" : "") + digits == text.replacingOccurrences(of: ",", with: ""))
    }
}
