import Foundation
import Testing

@testable import RollboardCore
@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardAccess
@testable import RollboardHub
@testable import RollboardAPI
@testable import RollboardServer

/// A number tile's `window`, `aggregate` and `compare` as the YAML loader (and so a reload) reads them: accepted on
/// odometers, counters and gauges, refused with a problem that names the field everywhere else or when misspelt.
@Suite("Window options")
struct WindowOptionsTests {
    static let file = "d/sales.yaml"

    static func problems(_ tile: String) -> [String] {
        let yaml = "id: sales\ntimeZone: Europe/Berlin\ntiles:\n  - " + tile.replacingOccurrences(of: "\n", with: "\n    ")
        do {
            _ = try RollboardConfiguration.parse(serverYAML: nil, dashboards: [(file, yaml)])
            return []
        } catch {
            return error.problems
        }
    }

    @Test("odometers, counters and gauges take a window, an aggregate and a comparison", arguments: [
        "{id: t, type: odometer, columns: 6, window: today, aggregate: sum, compare: yesterday}",
        "{id: t, type: counter, window: \"last 15m\", aggregate: count}",
        "{id: t, type: gauge, max: 100, window: thisMonth, aggregate: max, compare: lastWeek, goal: 80}",
        "{id: t, type: counter, window: yesterday}",
    ])
    func accepted(tile: String) throws {
        #expect(Self.problems(tile) == [])
        let yaml = "id: sales\ntiles:\n  - " + tile
        let configuration = try RollboardConfiguration.parse(serverYAML: nil, dashboards: [(Self.file, yaml)])
        #expect(configuration.dashboard("sales")?.tiles.first?.window != nil)
    }

    @Test("a window the tile cannot show, or a misspelt one, is refused naming the field", arguments: [
        ("{id: t, type: counter, window: tomorrow}",
         #"d/sales.yaml: tile "t": window: must be today, yesterday, thisWeek, thisMonth, or "last N" with m, h or d (like "last 15m"), got "tomorrow""#),
        ("{id: t, type: counter, window: \"last 0m\"}",
         #"d/sales.yaml: tile "t": window: must be today, yesterday, thisWeek, thisMonth, or "last N" with m, h or d (like "last 15m"), got "last 0m""#),
        ("{id: t, type: odometer, columns: 4, window: today, aggregate: median}",
         #"d/sales.yaml: tile "t": aggregate: must be one of last, sum, count, min, max, avg, change, got "median""#),
        ("{id: t, type: counter, window: today, compare: lastYear}",
         #"d/sales.yaml: tile "t": compare: must be yesterday or lastWeek, got "lastYear""#),
        ("{id: t, type: counter, aggregate: sum}",
         #"d/sales.yaml: tile "t": aggregate: needs a window (today, yesterday, thisWeek, thisMonth, or "last N" with m, h or d (like "last 15m"))"#),
        ("{id: t, type: counter, window: today, compare: yesterday, delta: previous}",
         #"d/sales.yaml: tile "t": compare: feeds the change arrow itself: leave out delta and baseline"#),
        ("{id: t, type: wheel, contents: [a, b], window: today}",
         #"d/sales.yaml: tile "t": window: is an option of odometer tiles, not wheel tiles (wheel options: contents, duration, colors)"#),
        ("{id: t, type: text, window: today}",
         #"d/sales.yaml: tile "t": window: is an option of odometer tiles, not text tiles (text options: text, align)"#),
    ])
    func refused(tile: String, problem: String) {
        #expect(Self.problems(tile) == [problem])
    }

    @Test("a posted value is judged only by the tiles that show it, not by a window of it", arguments: [
        ("window: today, aggregate: count", nil),
        ("", #"12345 is too wide for tile "t" of dashboard "sales": 3 columns with 0 decimals show at most ±999"#),
    ] as [(String, String?)])
    func producersAreJudgedByPlainTiles(window: String, problem: String?) throws {
        let yaml = "id: sales\ntiles:\n  - {id: t, type: odometer, columns: 3\(window.isEmpty ? "" : ", " + window)}\n"
        let configuration = try RollboardConfiguration.parse(serverYAML: nil, dashboards: [(Self.file, yaml)])
        #expect(configuration.catalog.problem(showing: 12_345, as: "t") == problem)
    }
}
