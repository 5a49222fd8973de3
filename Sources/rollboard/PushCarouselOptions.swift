import ArgumentParser

/// `--carousel ID` with exactly one command: `--next`, `--prev` or `--goto PAGE`.
struct PushCarouselOptions: ParsableArguments {
    @Option(name: .customLong("carousel"), help: ArgumentHelp("Command this carousel, e.g. news.", valueName: "id"))
    var id: String?

    @Flag(help: "Slide to the next page.")
    var next = false

    @Flag(help: "Slide to the previous page.")
    var prev = false

    @Option(name: .customLong("goto"), help: ArgumentHelp("Slide to this page (0-based).", valueName: "page"))
    var page: Int?

    func validate() throws {
        try ValidationError.checkExactlyOne(
            commands.map(\.option), of: "--next, --prev or --goto PAGE", for: "--carousel", id: id)
    }

    /// `POST /api/v1/carousels/{id}` with the command given, or `nil` without `--carousel`.
    func request() -> PushRequest? {
        guard let id else { return nil }
        let body = commands.map(\.body).joined(separator: ",")
        return PushRequest(collection: "carousels", id: id, body: Array(body.utf8))
    }

    /// The commands given: each option's name and its request body.
    private var commands: [(option: String, body: String)] {
        [
            next ? ("--next", "{\"action\":\"next\"}") : nil,
            prev ? ("--prev", "{\"action\":\"prev\"}") : nil,
            page.map { ("--goto", "{\"action\":\"goto\",\"page\":\($0)}") },
        ].compactMap(\.self)
    }
}
