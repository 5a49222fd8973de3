import ArgumentParser
import Foundation
import RollboardNet

/// The arguments of `rollboard push` and the write they describe: exactly one of a metric value (`ID VALUE`), a
/// wheel (`--wheel`), a carousel (`--carousel`), a text tile's message (`--text`) or a batch of values (`--batch`).
/// Parsed by ``Push``.
struct PushCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rollboard push",
        abstract: "Post a metric value, a wheel target, a carousel command, a text, a leaderboard or a batch of values to a running server.",
        usage: """
            rollboard push ID VALUE [--increment] [--idempotency-key KEY] [--interval S] [--no-animation] [--policy fifo|latest|retarget]
            rollboard push --wheel ID (--label TEXT | --index N | --progress P)
            rollboard push --carousel ID (--next | --prev | --goto PAGE)
            rollboard push --text ID --message TEXT [--color #RRGGBB]
            rollboard push --leaderboard ID --entry NAME=SCORE [--entry NAME=SCORE …] [--add] [--idempotency-key KEY]
            rollboard push --batch FILE|- [--increment] [--idempotency-key KEY] [--interval S] [--no-animation] [--policy fifo|latest|retarget]
            each with [--url URL] [--token TOKEN] [--data-dir DIR] [--ca-file PEM] [--insecure]
            """,
        discussion: """
            A batch file holds the JSON body of POST /api/v1/metrics ({"updates":[{"id":…,"value":…},…]}), or \
            lines of ID VALUE (blank lines skipped, # starts a comment); - reads it from stdin. The server stores \
            the whole batch or none of it.

            --increment adds VALUE (or each line's value) to the metric's latest value; the server answers with \
            the total. With --idempotency-key, sending the same command again within a day (after a timeout, say) \
            gets the first answer back and adds nothing.

            The token comes from --token, else ROLLBOARD_PRODUCER_TOKEN, else the token file the server generated \
            in --data-dir. Over https the server's certificate must be signed by --ca-file, else by the certificate \
            the server generated in --data-dir (tls/certificate.pem), else by the system's trust store.

            Prints the server's JSON reply. Exit status: 0 accepted; 1 refused by the server, or the server not \
            reached (with a hint when its certificate is not trusted); 2 bad arguments or batch file, nothing sent.
            """
    )

    @Argument(help: "The metric id, e.g. revenue.")
    var id: String?

    @Argument(help: "The metric's new value, e.g. 1234.5 (negative values after --, e.g. -- -3).")
    var value: String?

    @OptionGroup(title: "Metric values and batch lines")
    var values: PushValueOptions

    @OptionGroup(title: "Wheels")
    var wheel: PushWheelOptions

    @OptionGroup(title: "Carousels")
    var carousel: PushCarouselOptions

    @OptionGroup(title: "Text tiles")
    var text: PushTextOptions

    @OptionGroup(title: "Leaderboards")
    var leaderboard: PushLeaderboardOptions

    @Option(help: ArgumentHelp("Post many metric values at once, all or nothing, from FILE (- for stdin).", valueName: "file"))
    var batch: String?

    @Option(
        help: ArgumentHelp(
            "Sent as the Idempotency-Key header: the same key again within a day is answered as the first time, and "
                + "nothing is applied twice.", valueName: "key"))
    var idempotencyKey: String?

    @OptionGroup(title: "Connection")
    var connection: PushConnection

    func validate() throws {
        let given = [
            id.map { _ in "ID VALUE" }, wheel.id.map { _ in "--wheel" }, carousel.id.map { _ in "--carousel" },
            text.id.map { _ in "--text" }, leaderboard.id.map { _ in "--leaderboard" }, batch.map { _ in "--batch" },
        ].compactMap(\.self)
        guard given.count <= 1 else {
            throw ValidationError("push one thing at a time, not \(given.joined(separator: " and "))")
        }
        if id != nil, value == nil {
            throw ValidationError("VALUE is missing: rollboard push ID VALUE")
        }
        if let what = given.first, id == nil, batch == nil, let option = values.given.first {
            throw ValidationError("\(option) is for metric values (ID VALUE or --batch), not \(what)")
        }
        if let what = given.first, id == nil, batch == nil, leaderboard.id == nil, idempotencyKey != nil {
            throw ValidationError("--idempotency-key is for metric values and leaderboards, not \(what)")
        }
    }

    func run() throws {
        let response = try connection.send(request())
        let text = String(decoding: response.body, as: UTF8.self)
        guard (200..<300).contains(response.status.code) else {
            FileHandle.standardError.write(Data("\(response.status.code) \(text)\n".utf8))
            throw ExitCode.failure
        }
        print(text)
    }

    /// The write these arguments describe; a `ValidationError` when they describe none, or a value or batch file
    /// that cannot be sent.
    private func request() throws -> PushRequest {
        if let wheel = wheel.request() { return wheel }
        if let carousel = carousel.request() { return carousel }
        if let text = try text.request() { return text }
        if var leaderboard = try leaderboard.request() {
            leaderboard.idempotencyKey = idempotencyKey
            return leaderboard
        }
        if let batch {
            var request = PushRequest(collection: "metrics", body: try PushBatch.body(path: batch, values: values))
            request.idempotencyKey = idempotencyKey
            return request
        }
        guard let id, let value else {
            throw ValidationError("say what to push: ID VALUE, --wheel ID, --carousel ID, --text ID, --leaderboard ID or --batch FILE")
        }
        guard let number = PushRequest.number(value) else {
            throw ValidationError("VALUE must be a finite number, not \(value)")
        }
        var request = PushRequest(collection: "metrics", id: id, body: Array(values.object(value: number).utf8))
        request.idempotencyKey = idempotencyKey
        return request
    }
}
