import ArgumentParser
import Foundation

/// `--text ID` with the message to show (`--message TEXT`, empty to clear) and an optional `--color #RRGGBB`.
struct PushTextOptions: ParsableArguments {
    @Option(name: .customLong("text"), help: ArgumentHelp("Set this text tile's message, e.g. notice.", valueName: "id"))
    var id: String?

    @Option(help: ArgumentHelp("The message (up to 500 characters; \"\" clears it).", valueName: "text"))
    var message: String?

    @Option(help: ArgumentHelp("The message's colour, #rgb or #rrggbb.", valueName: "colour"))
    var color: String?

    func validate() throws {
        guard id != nil else {
            if message != nil { throw ValidationError("--message needs --text ID") }
            if color != nil { throw ValidationError("--color needs --text ID") }
            return
        }
        guard message != nil else { throw ValidationError("give --text ID a --message TEXT (\"\" clears it)") }
    }

    /// `POST /api/v1/texts/{id}` with the message, or `nil` without `--text`.
    func request() throws -> PushRequest? {
        guard let id, let message else { return nil }
        var body: [String: String] = ["text": message]
        if let color { body["color"] = color }
        let json = try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys, .withoutEscapingSlashes])
        return PushRequest(collection: "texts", id: id, body: Array(json))
    }
}
