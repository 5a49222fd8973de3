import ArgumentParser
import Foundation

/// `--leaderboard ID` with one `--entry NAME=SCORE` per name: the whole board, or with `--add` amounts to add (a
/// missing name starts at 0).
struct PushLeaderboardOptions: ParsableArguments {
    @Option(
        name: .customLong("leaderboard"), help: ArgumentHelp("Set or add to this leaderboard, e.g. sales.", valueName: "id"))
    var id: String?

    @Option(
        name: .customLong("entry"),
        help: ArgumentHelp("A name and its score (repeat it for each name), e.g. --entry Alice=12.", valueName: "name=score"))
    var entries: [String] = []

    @Flag(help: "Add the scores to the board's (an increment) instead of replacing the board.")
    var add = false

    func validate() throws {
        guard id != nil else {
            if !entries.isEmpty { throw ValidationError("--entry needs --leaderboard ID") }
            if add { throw ValidationError("--add needs --leaderboard ID") }
            return
        }
        guard !entries.isEmpty else { throw ValidationError("give --leaderboard ID at least one --entry NAME=SCORE") }
        _ = try scores()
    }

    /// The names and scores of `--entry`, split at the last `=`.
    private func scores() throws -> [(name: String, score: Double)] {
        try entries.map { entry in
            guard let equals = entry.lastIndex(of: "="), let score = Double(entry[entry.index(after: equals)...]),
                score.isFinite
            else { throw ValidationError("--entry must be NAME=SCORE with a finite number, not \(entry)") }
            return (String(entry[..<equals]), score)
        }
    }

    /// `POST /api/v1/leaderboards/{id}` with `entries` (or `increment` with `--add`), or `nil` without `--leaderboard`.
    func request() throws -> PushRequest? {
        guard let id else { return nil }
        var board: [String: Double] = [:]
        for (name, score) in try scores() { board[name] = score }
        let body: [String: Any] = [add ? "increment" : "entries": board]
        let json = try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys, .withoutEscapingSlashes])
        return PushRequest(collection: "leaderboards", id: id, body: Array(json))
    }
}
