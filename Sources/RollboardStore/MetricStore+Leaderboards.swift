package import RollboardConfig

// Leaderboard edits on the journal: resolved and numbered under the lock that numbers every change, so the boards
// follow the journal's order, like increments.
extension MetricStore {
    /// Resolves `request` against the last board numbered for its leaderboard (a change still being written counts)
    /// and numbers the result before the lock is let go: two edits never start from the same board. A key remembered
    /// for a day answers with its earlier board; a retry whose key belongs to a board still being written waits for
    /// that board's answer.
    public func commitLeaderboard(
        _ request: LeaderboardCommitRequest,
        completion: @escaping @Sendable (Result<LeaderboardCommitOutcome, LeaderboardCommitError>) -> Void
    ) {
        commitResolved(
            keys: request.memoryKey.map { [$0] } ?? [], failure: LeaderboardCommitError.store,
            again: { self.commitLeaderboard(request, completion: completion) }, completion: completion
        ) { state, now in
            let base = state.tentativeBoards[request.id] ?? state.model.leaderboards[request.id]
            let remembered = request.memoryKey.flatMap { state.model.idempotency.board($0, at: now) }
            switch request.resolve(against: base, remembered: remembered) {
            case .replay(let board): return .answer(.success(LeaderboardCommitOutcome(board: board, replayed: true)))
            case .refused(let refusal): return .answer(.failure(.refused(refusal)))
            case .commit(let board):
                return .commit(.leaderboard(board)) { committed in
                    guard case .leaderboard(let board) = committed else {
                        preconditionFailure("a leaderboard change commits as one")
                    }
                    return LeaderboardCommitOutcome(board: board, replayed: false)
                }
            }
        }
    }
}
