import RollboardAnimation
package import RollboardConfig
package import RollboardCore

extension SourceAnswer {
    /// A `json` leaderboard out of `document`: the array at the board's `items` pointer, and in each item its name
    /// (a string, at the `name` pointer) and its score (a number, at `score`), in the array's order. More than `cap`
    /// items, a name listed twice, or any item without both is a failure naming the board and the pointer.
    static func jsonLeaderboard(_ document: JSONValue, _ board: SourceConfiguration.Leaderboard, cap: Int)
        throws(SourceFailure) -> [LeaderboardEntry]
    {
        let id = board.leaderboard
        let itemsPointer = board.items ?? ""
        guard let found = resolve(itemsPointer, in: document) else {
            throw .pointerFindsNothing(metric: id, pointer: itemsPointer)
        }
        guard case .array(let items) = found else {
            throw .resultShape(
                target: id, expected: "an array at \(itemsPointer.isEmpty ? "the document" : itemsPointer)",
                found: found.kindDescription)
        }
        guard items.count <= cap else { throw .tooManyRows(target: id, cap: cap) }
        var entries: [LeaderboardEntry] = []
        var names = Set<String>()
        for (index, item) in items.enumerated() {
            let namePointer = itemsPointer + "/\(index)" + (board.name ?? "")
            let scorePointer = itemsPointer + "/\(index)" + (board.score ?? "")
            guard let nameValue = resolve(board.name ?? "", in: item) else {
                throw .pointerFindsNothing(metric: id, pointer: namePointer)
            }
            guard case .string(let name) = nameValue else {
                throw .resultShape(target: id, expected: "a string at \(namePointer)", found: nameValue.kindDescription)
            }
            guard let scoreValue = resolve(board.score ?? "", in: item) else {
                throw .pointerFindsNothing(metric: id, pointer: scorePointer)
            }
            guard case .number(let score) = scoreValue else {
                throw .pointerFindsNoNumber(metric: id, pointer: scorePointer, kind: scoreValue.kindDescription)
            }
            guard score.double.isFinite else {
                throw .pointerFindsNoNumber(metric: id, pointer: scorePointer, kind: "out of range")
            }
            guard names.insert(name).inserted else { throw duplicate(name, board: id) }
            entries.append(LeaderboardEntry(name: name, value: score.double))
        }
        return entries
    }

    /// A board's name that comes twice (a board holds each name once).
    static func duplicate(_ name: String, board: String) -> SourceFailure {
        .resultShape(target: board, expected: "each name once", found: "\"\(shown(name) ?? "")\" twice")
    }
}
