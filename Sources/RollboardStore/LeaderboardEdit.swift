public import RollboardAnimation
package import RollboardConfig
package import RollboardCore

/// What a producer asks of a leaderboard: a whole new board, or amounts to add to some names (a missing name starts
/// at 0). The change log resolves an edit against the board as its order leaves it (``resolved(against:limit:)``)
/// and commits the resulting board.
public enum LeaderboardEdit: Sendable, Equatable {
    case replace([LeaderboardEntry])
    case increment([LeaderboardEntry])

    /// The largest score (either sign) a board holds.
    public static let largestScore = 1e15

    /// Why the edit cannot apply to `board`: the field to name and the reason.
    public struct Refusal: Error, Sendable, Equatable {
        public var field: String
        public var reason: String
    }

    /// The board once the edit applies to `board` (`nil`: none yet), or the refusal when the result would hold more
    /// than `limit` entries, or a score that is not finite or that `problem` (the tiles' rule) names a reason for.
    public func resolved(
        against board: [LeaderboardEntry]?, limit: Int, problem: (Double) -> String? = { _ in nil }
    ) -> Result<[LeaderboardEntry], Refusal> {
        switch self {
        case .replace(let entries):
            guard entries.count <= limit else {
                return .failure(Refusal(field: "entries", reason: "\(entries.count) entries are more than the \(limit) a leaderboard holds (limits.maxLeaderboardEntries)"))
            }
            for entry in entries {
                if let reason = problem(entry.value) { return .failure(Refusal(field: "entries.\(entry.name)", reason: reason)) }
            }
            return .success(entries)
        case .increment(let amounts):
            var entries = board ?? []
            var index: [String: Int] = [:]
            for (offset, entry) in entries.enumerated() { index[entry.name] = offset }
            for amount in amounts {
                let offset = index[amount.name] ?? entries.count
                if offset == entries.count {
                    index[amount.name] = offset
                    entries.append(LeaderboardEntry(name: amount.name, value: 0))
                }
                entries[offset].value += amount.value
                let total = entries[offset].value
                guard total.isFinite, abs(total) <= Self.largestScore else {
                    return .failure(Refusal(field: "increment.\(amount.name)", reason: "the total, \(formatNumber(total)), would be beyond ±1e15"))
                }
                if let reason = problem(total) {
                    return .failure(Refusal(field: "increment.\(amount.name)", reason: "the total: \(reason)"))
                }
            }
            guard entries.count <= limit else {
                return .failure(Refusal(field: "increment", reason: "the board would hold \(entries.count) entries, more than the \(limit) a leaderboard holds (limits.maxLeaderboardEntries)"))
            }
            return .success(entries)
        }
    }

    /// The edit of leaderboard `id` as one canonical line (entries by name, each name after its length in UTF-8
    /// bytes so no name can pass for two), for telling a retry from another request: `sales increment 5:Alice=1.0`.
    func fingerprint(of id: String) -> String {
        let (verb, entries): (String, [LeaderboardEntry]) =
            switch self {
            case .replace(let entries): ("replace", entries)
            case .increment(let entries): ("increment", entries)
            }
        let sorted = entries.sorted { $0.name.unicodeScalars.lexicographicallyPrecedes($1.name.unicodeScalars) }
        return ([id, verb] + sorted.map { "\($0.name.utf8.count):\($0.name)=\($0.value)" }).joined(separator: " ")
    }
}
