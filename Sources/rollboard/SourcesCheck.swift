import ArgumentParser
import RollboardAPI
import RollboardAccess
import RollboardAnimation
import RollboardConfig
import RollboardCore
import RollboardHub
import RollboardMetrics
import RollboardRedisLog
import RollboardServer
import RollboardSources
import RollboardStore

/// `rollboard sources check ID`: fetches a source once, as the server would (a postgres source: its queries in one
/// read-only transaction), and prints what it would post or why
/// not. Exit status 0 when every value would be posted, 1 otherwise (the configuration refused, no such source, a
/// failed fetch, a value a tile cannot show).
struct SourcesCheck: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Fetch a source once and print what it would post, or why not."
    )

    @Argument(help: "The source's id (its file name in config/sources/ without .yaml, or its id: key).")
    var id: String

    @Option(help: "The configuration folder.")
    var config = "config"

    func run() throws {
        let loaded = try CheckedConfiguration.load(config)
        let source = try CheckedConfiguration.find(
            id, in: loaded.sources, id: \.id, noun: "source", folder: config + "/sources")
        switch SourceFetch.perform(source) {
        case .failure(let failure):
            print("\(source.id) (\(source.kind.rawValue)): \(failure)")
            throw ExitCode(1)
        case .success(let values):
            var refused = false
            for metric in source.metricIDs {
                let value = values.metrics[metric] ?? .nan
                if let problem = loaded.catalog.problem(showing: value, as: metric) {
                    print("\(metric) \(value): would be refused: \(problem)")
                    refused = true
                } else {
                    print("\(metric) \(value)")
                }
            }
            for board in source.leaderboardIDs {
                let entries = values.leaderboards[board] ?? []
                print("\(board): \(entries.count) entries")
                for entry in entries {
                    if let problem = loaded.catalog.problem(showing: entry.value, as: board) {
                        print("  \(entry.name) \(entry.value): would be refused: \(problem)")
                        refused = true
                    } else {
                        print("  \(entry.name) \(entry.value)")
                    }
                }
            }
            if refused { throw ExitCode(1) }
        }
    }
}
