import Foundation
import Testing
import Yams

@testable import RollboardCore
@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardMetrics
@testable import RollboardAccess
@testable import RollboardHub
@testable import RollboardSources
@testable import RollboardAPI
@testable import RollboardServer

/// The defaults are written once (`ServerSettings.Defaults`, the tiles' in RollboardAnimation); these tests hold what
/// restates them, docs/configuration.md and the shipped server.yaml, to that one place.
@Suite("Defaults written once")
struct DefaultsTests {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The `server.yaml` table of docs/configuration.md as (key, default) pairs, for the rows whose default is a value
    /// in backticks (not "absent").
    static func documentedDefaults() throws -> [(key: String, value: String)] {
        let text = try String(
            contentsOf: repositoryRoot.appendingPathComponent("docs/configuration.md"), encoding: .utf8)
        let section = text.components(separatedBy: "## `server.yaml`")[1].components(separatedBy: "\n#")[0]
        return section.split(separator: "\n").compactMap { line in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 4, cells[1].hasPrefix("`"), cells[2].hasPrefix("`"), cells[2].hasSuffix("`"),
                !cells[1].contains(",")
            else { return nil }
            return (String(cells[1].dropFirst().dropLast()), String(cells[2].dropFirst().dropLast()))
        }
    }

    @Test("docs/configuration.md states every server default as ServerSettings.Defaults has it")
    func documentedDefaultsAreTheDefaults() throws {
        let rows = try Self.documentedDefaults()
        #expect(rows.count >= 20, "\(rows)")
        var top: [String] = []
        var limits: [String] = []
        var redis = ["  url: redis://cache"]
        for (key, value) in rows {
            let parts = key.split(separator: ".")
            switch parts.first {
            case "limits" where parts.count == 2: limits.append("  \(parts[1]): \(value)")
            case "redis" where parts.count == 2: redis.append("  \(parts[1]): \(value)")
            default: top.append("\(key): \(value)")
            }
        }
        let yaml = (top + ["limits:"] + limits + ["redis:"] + redis).joined(separator: "\n")
        let problems = ConfigurationProblems()
        var read = ServerSettings(node: try #require(try Yams.compose(yaml: yaml)), file: "docs", problems: problems)
        #expect(problems.lines.isEmpty, "\(problems.lines)")
        #expect(read.redis == RedisSettings(url: "redis://cache"), "\(yaml)")
        read.redis = nil
        #expect(read == ServerSettings(), "\(yaml)")
    }

    @Test("the shipped config/server.yaml writes out the defaults, and sets only staleAfter to something else")
    func shippedFileStatesTheDefaults() throws {
        let text = try String(
            contentsOf: Self.repositoryRoot.appendingPathComponent("config/server.yaml"), encoding: .utf8)
        let problems = ConfigurationProblems()
        var shipped = ServerSettings(
            node: try #require(try Yams.compose(yaml: text)), file: "config/server.yaml", problems: problems)
        #expect(problems.lines.isEmpty, "\(problems.lines)")
        #expect(shipped.staleAfter == 900)
        shipped.staleAfter = nil
        #expect(shipped == ServerSettings())
    }

    /// The rows of the table under the docs/configuration.md heading that starts with `heading`, as (key, default),
    /// for the rows whose default is one value in backticks.
    static func documentedTileDefaults(under heading: String) throws -> [(key: String, value: String)] {
        let text = try String(
            contentsOf: repositoryRoot.appendingPathComponent("docs/configuration.md"), encoding: .utf8)
        let section = text.components(separatedBy: "\n### " + heading)[1].components(separatedBy: "\n#")[0]
        return section.split(separator: "\n").compactMap { line in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 4, cells[1].hasPrefix("`"), !cells[1].contains(","), cells[2].count > 2,
                cells[2].hasPrefix("`"), cells[2].hasSuffix("`"), cells[2].dropFirst().dropLast().allSatisfy({ $0 != "`" })
            else { return nil }
            return (String(cells[1].dropFirst().dropLast()), String(cells[2].dropFirst().dropLast()))
        }
    }

    /// The options of the one tile of a dashboard whose tile has `type`, the `required` lines and `extra` lines.
    static func tileOptions(type: String, required: [String], extra: [String]) throws -> TileOptions {
        let lines = ["id: d", "tiles:", "  - id: t", "    type: \(type)"] + (required + extra).map { "    " + $0 }
        let problems = ConfigurationProblems()
        let dashboard = DashboardConfiguration(
            node: try #require(try Yams.compose(yaml: lines.joined(separator: "\n"))), file: "d.yaml", problems: problems)
        #expect(problems.lines.isEmpty, "\(problems.lines)")
        return try #require(dashboard?.tiles.first?.options)
    }

    @Test("docs/configuration.md states each tile type's defaults as the tiles have them", arguments: [
        ("odometer", "`odometer`", [String]()),
        ("counter", "`counter`", []),
        ("wheel", "`wheel`", ["contents: [Up, Down]"]),
        ("carousel", "`carousel`", ["slides: [{text: hello}]"]),
    ])
    func documentedTileDefaultsAreTheDefaults(type: String, heading: String, required: [String]) throws {
        let rows = try Self.documentedTileDefaults(under: heading)
        #expect(!rows.isEmpty)
        let stated = rows.map { key, value in
            let plain = Double(value) != nil || value == "true" || value == "false"
            return "\(key): " + (plain ? value : "\"\(value.replacingOccurrences(of: "\"", with: ""))\"")
        }
        let documented = try Self.tileOptions(type: type, required: required, extra: stated)
        #expect(documented == (try Self.tileOptions(type: type, required: required, extra: [])), "\(stated)")
    }

    @Test("an empty server.yaml gives the defaults, and the limits' frame rates lie in the range a screen may get")
    func emptyFileGivesTheDefaults() throws {
        let problems = ConfigurationProblems()
        let settings = ServerSettings(node: try #require(try Yams.compose(yaml: "{}")), file: "server.yaml", problems: problems)
        #expect(problems.lines.isEmpty)
        #expect(settings.port == ServerSettings.Defaults.port)
        #expect(settings.historyLength == ServerSettings.Defaults.historyLength)
        #expect(settings.journalCompactionBytes == ServerSettings.Defaults.journalCompactionBytes)
        #expect(settings.limits.maxFPS == ServerSettings.Limits.Defaults.maxFPS)
        #expect(ServerSettings.Limits.fpsRange.contains(ServerSettings.Limits.Defaults.defaultFPS))
        #expect(ServerSettings.Limits.fpsRange.upperBound == ServerSettings.Limits.Defaults.maxFPS)
    }

    @Test("a maxFPS beyond the range a screen may get is refused, naming the range")
    func maxFPSBeyondTheRangeIsRefused() throws {
        let problems = ConfigurationProblems()
        let yaml = "limits:\n  maxFPS: \(ServerSettings.Limits.fpsRange.upperBound + 1)\n"
        _ = ServerSettings(node: try #require(try Yams.compose(yaml: yaml)), file: "server.yaml", problems: problems)
        #expect(problems.lines.contains { $0.contains("limits.maxFPS") && $0.contains("\(ServerSettings.Limits.fpsRange.upperBound)") }, "\(problems.lines)")
    }
}
