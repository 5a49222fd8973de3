@testable import RollboardCore
@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardAccess
@testable import RollboardHub
@testable import RollboardAPI
@testable import RollboardServer

/// The demo dashboard file holding one tile, for the tests of a tile kind's configuration.
enum OneTileDashboard {
    static let file = "config/dashboards/demo.yaml"

    /// The file's text: `tile` (the tile's YAML lines) indented under `tiles:`.
    static func yaml(tile: String) -> String {
        let indented = tile.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n")
        return "id: demo\ntitle: Demo\ngrid: {columns: 4, rows: 3}\ntiles:\n  -\n\(indented)\n"
    }

    /// The configuration holding the one-tile dashboard.
    static func configuration(tile: String) throws(ConfigurationError) -> RollboardConfiguration {
        try RollboardConfiguration.parse(serverYAML: nil, dashboards: [(file, yaml(tile: tile))])
    }

    /// What refuses the dashboard (nothing when it parses).
    static func problems(tile: String) -> [String] {
        do {
            _ = try configuration(tile: tile)
            return []
        } catch {
            return error.problems
        }
    }

    /// The configuration holding the one-tile dashboard, and the tile `id`'s part of the hello.
    static func hello(tile: String, id: String) throws -> (configuration: RollboardConfiguration, json: String) {
        let configuration = try configuration(tile: tile)
        guard let described = configuration.dashboard("demo")?.tile(id) else { throw OneTileDashboardError.noTile(id) }
        return (configuration, configuration.json(described).serialized)
    }
}

/// A tile the one-tile dashboard does not hold.
enum OneTileDashboardError: Error {
    case noTile(String)
}
