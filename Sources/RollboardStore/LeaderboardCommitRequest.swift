package import RollboardCore
package import RollboardConfig

/// A producer's leaderboard write as a change log takes it: the edit, the rules its result must keep, and the
/// request's `Idempotency-Key`. Both backends resolve it with ``resolve(against:remembered:)``.
public struct LeaderboardCommitRequest: Sendable {
    public var id: String
    public var edit: LeaderboardEdit
    /// The most entries the board may hold (`limits.maxLeaderboardEntries`).
    public var limit: Int
    /// The tiles' rule for a score: why it cannot be shown, or `nil`.
    public var problem: @Sendable (Double) -> String?
    public var requestKey: String?

    public init(
        id: String, edit: LeaderboardEdit, limit: Int, requestKey: String? = nil,
        problem: @escaping @Sendable (Double) -> String? = { _ in nil }
    ) {
        self.id = id
        self.edit = edit
        self.limit = limit
        self.requestKey = requestKey
        self.problem = problem
    }

    /// What the request asks, to tell a retry from another request under the same key.
    var fingerprint: String { edit.fingerprint(of: id) }

    /// The memory key of its `Idempotency-Key`, if it has one.
    package var memoryKey: String? { requestKey.map(IdempotencyMemory.boardKey) }

    /// What resolving a request against the board the log's order leaves gives.
    package enum Resolution: Equatable {
        /// Its key committed `board` within the last day: the answer again, nothing applied.
        case replay(StoredLeaderboard)
        case refused(LeaderboardEdit.Refusal)
        /// The board to commit (sequence number 0, no commit time yet), carrying the request's key.
        case commit(StoredLeaderboard)
    }

    /// Resolves the request against `base` (the newest board the log knows, `nil`: none), `remembered` being the
    /// board its key committed earlier, if any.
    package func resolve(against base: StoredLeaderboard?, remembered: StoredLeaderboard?) -> Resolution {
        if let earlier = remembered, let key = requestKey {
            guard earlier.request.map(RememberedAnswer.digest) == RememberedAnswer.digest(fingerprint) else {
                return .refused(
                    .init(
                        field: "Idempotency-Key",
                        reason: "\(IdempotencyMemory.shown(key)) was used within the last day for a different request"))
            }
            return .replay(earlier)
        }
        switch edit.resolved(against: base?.entries, limit: limit, problem: problem) {
        case .failure(let refusal):
            return .refused(refusal)
        case .success(let entries):
            var board = StoredLeaderboard(id: id, entries: entries, seq: 0, updatedAt: 0)
            if let requestKey {
                board.requestKey = requestKey
                board.request = fingerprint
            }
            return .commit(board)
        }
    }
}

/// A leaderboard write's answer: the board committed, or the one its `Idempotency-Key` committed earlier.
public struct LeaderboardCommitOutcome: Sendable, Equatable {
    public var board: StoredLeaderboard
    /// Whether the board is an earlier commit's answer (nothing was applied now).
    public var replayed: Bool

    package init(board: StoredLeaderboard, replayed: Bool) {
        self.board = board
        self.replayed = replayed
    }
}
