package import RollboardAccess
import RollboardAnimation
package import RollboardConfig
package import RollboardCore
package import RollboardHub
import RollboardNet
package import RollboardStore

/// Reads a leaderboard write: `{"entries":{"Alice":12,…}}` (replace the board) or `{"increment":{"Alice":1,…}}`
/// (add to entries, creating missing ones), each refusal naming its field.
enum LeaderboardRequest {
    static func edit(_ object: JSONValue, limit: Int) throws(APIError) -> LeaderboardEdit {
        try JSONBody.rejectUnknownFields(object, allowed: ["entries", "increment"], prefix: "")
        switch (object["entries"], object["increment"]) {
        case (nil, nil):
            throw .missingField("entries")
        case (_?, _?):
            throw .badRequest("increment: give entries or increment, not both")
        case (let entries?, nil):
            return .replace(try scores(entries, field: "entries", limit: limit))
        case (nil, let increment?):
            return .increment(try scores(increment, field: "increment", limit: limit))
        }
    }

    /// An object of names (``DisplayText/name``) and finite numbers, at most `limit` of them.
    private static func scores(_ json: JSONValue, field: String, limit: Int) throws(APIError) -> [LeaderboardEntry] {
        guard case .object(let members) = json else {
            throw .wrongType(field, expected: "an object of names and numbers", got: json)
        }
        guard members.count <= limit else {
            throw .invalidValue(
                "\(field): \(members.count) entries are more than the \(limit) a leaderboard holds "
                    + "(limits.maxLeaderboardEntries)")
        }
        var seen = Set<String>()
        var entries: [LeaderboardEntry] = []
        for member in members {
            let name = member.key
            if let problem = DisplayText.name.problem(with: name) {
                throw .invalidValue("\(field)[\(JSONText.quoted(DisplayText.excerpt(name)))]: \(problem)")
            }
            guard seen.insert(name).inserted else { throw .badRequest("\(field).\(name): the name is given twice") }
            guard case .number(let number) = member.value else {
                throw .wrongType("\(field).\(name)", expected: "a number", got: member.value)
            }
            guard number.double.isFinite, abs(number.double) <= LeaderboardEdit.largestScore else {
                throw .invalidValue("\(field).\(name): \(number.literal) is not a finite number of at most 1e15")
            }
            entries.append(LeaderboardEntry(name: name, value: number.double))
        }
        return entries
    }
}
