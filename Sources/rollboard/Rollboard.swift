import ArgumentParser

/// The `rollboard` command line: serve dashboards, simulate animations, push values.
@main
struct Rollboard: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rollboard",
        abstract: "A live-KPI-dashboard backend that animates on the server.",
        subcommands: [Serve.self, Push.self, Simulate.self, SourcesCommand.self, HooksCommand.self]
    )
}
