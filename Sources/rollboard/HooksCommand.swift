import ArgumentParser

/// `rollboard hooks …`: webhook endpoints (docs/webhooks.md).
struct HooksCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hooks",
        abstract: "Work with the webhook endpoints of config/webhooks/.",
        subcommands: [HooksTest.self]
    )
}
