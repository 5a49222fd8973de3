import RollboardAnimation
package import RollboardConfig
package import RollboardPostgres

/// Reading a `postgres` source's values out of its queries' rows: pure, so every shape a result can have is tested
/// without a database.
enum PostgresAnswer {
    /// The rows fetched for a metric's query: two at most, so that "more than one row" is seen without reading them all.
    static let metricRowCap = 1

    /// The number of a metric's query: exactly one row of one column of a number type, not NULL, finite.
    static func metricValue(_ result: PostgresRows, metric: String) throws(SourceFailure) -> Double {
        let expected = "one row with one number"
        guard result.columns.count == 1 else {
            throw .resultShape(target: metric, expected: expected, found: "\(result.columns.count) columns")
        }
        guard result.rows.count == 1 else {
            throw .resultShape(
                target: metric, expected: expected, found: result.rows.isEmpty ? "no rows" : "more than one row")
        }
        guard result.columns[0].isNumber else {
            throw .resultShape(target: metric, expected: expected, found: "a column that is not a number")
        }
        return try number(result.rows[0][0], target: metric, expected: expected)
    }

    /// The entries of a leaderboard's query: (name, score) rows in the query's order, at most `cap` of them (the
    /// query's rows are fetched up to `cap` + 1, so more is seen without reading them all), each name once.
    static func leaderboard(_ result: PostgresRows, board: String, cap: Int) throws(SourceFailure)
        -> [LeaderboardEntry]
    {
        let expected = "(name, score) rows"
        guard result.rows.count <= cap else { throw .tooManyRows(target: board, cap: cap) }
        guard result.columns.count == 2 else {
            throw .resultShape(target: board, expected: expected, found: "\(result.columns.count) columns")
        }
        guard result.columns[1].isNumber else {
            throw .resultShape(target: board, expected: expected, found: "a score column that is not a number")
        }
        var entries: [LeaderboardEntry] = []
        var names = Set<String>()
        for (index, row) in result.rows.enumerated() {
            guard let name = row[0] else {
                throw .resultShape(target: board, expected: expected, found: "a NULL name in row \(index + 1)")
            }
            let score = try number(row[1], target: board, expected: expected)
            guard names.insert(name).inserted else { throw SourceAnswer.duplicate(name, board: board) }
            entries.append(LeaderboardEntry(name: name, value: score))
        }
        return entries
    }

    /// A number column's text as a finite number (numeric's NaN and float's Infinity are not).
    private static func number(_ text: String?, target: String, expected: String) throws(SourceFailure) -> Double {
        guard let text else { throw .resultShape(target: target, expected: expected, found: "NULL") }
        guard let value = Double(text), value.isFinite else {
            throw .resultShape(target: target, expected: expected, found: SourceAnswer.shown(text).map { "\"\($0.prefix(40))\"" } ?? "nothing")
        }
        return value
    }
}
