import ArgumentParser
import RollboardAPI
import RollboardConfig
import RollboardCore

/// `rollboard hooks test ID FILE`: runs a recorded payload through a webhook's rules and prints what it would post,
/// one line per change, and the event id. Exit status 0 when the payload maps (or matches no rule), 1 otherwise
/// (the configuration refused, no such webhook, an unreadable file, bad JSON, a pointer finding the wrong type, a
/// value set outright that a tile cannot show).
struct HooksTest: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Run a recorded payload through a webhook's rules and print what it would post.",
        discussion: """
            The payload's signature is not checked (a recorded payload has no headers): only the rules and the \
            event id pointer are. Nothing is posted.
            """
    )

    @Argument(help: "The webhook's id (its file name in config/webhooks/ without .yaml, or its id: key).")
    var id: String

    @Argument(help: "A file holding the JSON body of a delivery.")
    var file: String

    @Option(help: "The configuration folder.")
    var config = "config"

    func run() throws {
        let loaded = try CheckedConfiguration.load(config)
        let webhook = try CheckedConfiguration.find(
            id, in: loaded.webhooks, id: \.id, noun: "webhook", folder: config + "/webhooks")
        let body: [UInt8]
        do {
            guard let bytes = try readWholeFile(file) else {
                print("\(file): no such file")
                throw ExitCode(1)
            }
            body = bytes
        } catch let error as Errno {
            print("\(file): cannot read: \(error)")
            throw ExitCode(1)
        }
        if body.count > webhook.maxBodyBytes {
            print("\(file): \(body.count) bytes, over maxBodyBytes (\(webhook.maxBodyBytes)): would be refused")
            throw ExitCode(1)
        }
        let document: JSONValue
        do {
            document = try JSONParser.parse(body)
        } catch {
            print("\(file): invalid JSON: \(error)")
            throw ExitCode(1)
        }
        let rules = WebhookRules(webhook)
        // A recorded body has no headers: an event id from a header is not checked here.
        switch (rules.eventID(in: document, header: { _ in "-" }), rules.evaluate(document: document)) {
        case (.failure(let problem), _), (_, .failure(let problem)):
            print("\(webhook.id): would be refused: \(problem)")
            throw ExitCode(1)
        case (.success(let event), .success(let effects)):
            switch webhook.event {
            case .header(let name)?: print("event from the \(name) header (not in a recorded body)")
            default: print("event " + (event.map { "\"\($0)\"" } ?? "(no event pointer)"))
            }
            if effects.isEmpty { print("no rule matches: would be ignored") }
            var refused = false
            for effect in effects {
                // A value set outright can be checked against the tiles now; an increment depends on the total.
                if case .set(let metric, let value) = effect,
                    let problem = loaded.catalog.problem(showing: value, as: metric)
                {
                    print("\(effect): would be refused: \(problem)")
                    refused = true
                } else {
                    print(effect.description)
                }
            }
            if refused { throw ExitCode(1) }
        }
    }
}
