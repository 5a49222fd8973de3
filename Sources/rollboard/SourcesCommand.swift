import ArgumentParser

/// `rollboard sources …`: scheduled sources (docs/sources.md).
struct SourcesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sources",
        abstract: "Work with the scheduled sources of config/sources/.",
        subcommands: [SourcesCheck.self]
    )
}
