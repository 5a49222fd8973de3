public import RollboardAnimation
public import RollboardConfig
public import RollboardCore
public import RollboardStore

// Leaderboard edits on Redis: the node resolves the edit against the newest board it knows and appends the whole
// board through the append script, guarded: only if the latest-values hash still holds that board and the request's
// `Idempotency-Key` is not already there. Otherwise it learns the newer board (or the key's earlier answer) from the
// script's reply and resolves again. Every node then sees whole boards in the stream's order, and one catching up
// from the hash alone (the stream trimmed) has the same totals.
extension RedisChangeLog {
    /// Attempts before an edit that keeps meeting newer boards is given up (503).
    static let leaderboardAttempts = 16

    /// Runs the edit once the node's edits before it are answered, from the newest board this node knows (its own
    /// last commit, a newer board Redis showed it, or what it read from the stream).
    public func commitLeaderboard(
        _ request: LeaderboardCommitRequest,
        completion: @escaping @Sendable (Result<LeaderboardCommitOutcome, LeaderboardCommitError>) -> Void
    ) {
        leaderboardLane.inTurn { [self] answered in
            let base = leaderboardLane.newest(request.id, or: snapshot.leaderboard(request.id))
            attemptLeaderboard(request, base: base, remembered: nil, attempt: 1) { result in
                completion(result)
                answered()
            }
        }
    }

    private func attemptLeaderboard(
        _ request: LeaderboardCommitRequest, base: StoredLeaderboard?, remembered: StoredLeaderboard?, attempt: Int,
        _ completion: @escaping @Sendable (Result<LeaderboardCommitOutcome, LeaderboardCommitError>) -> Void
    ) {
        let board: StoredLeaderboard
        switch request.resolve(against: base, remembered: remembered) {
        case .replay(let earlier): return completion(.success(LeaderboardCommitOutcome(board: earlier, replayed: true)))
        case .refused(let refusal): return completion(.failure(.refused(refusal)))
        case .commit(let resolved): board = resolved
        }
        let record = StoreChange.leaderboard(board).stamped(at: clock())
        let field = "b:" + request.id
        guard case .leaderboard(let stamped) = record else { preconditionFailure("a leaderboard change") }
        let remembering =
            request.memoryKey.map { [RedisKeys.RememberedKey(key: $0, offset: 0, answer: RememberedAnswer(stamped))] }
            ?? []
        send(record, guards: [RedisKeys.Guard(field: field, seq: base?.seq ?? 0)], remembering: remembering) {
            [weak self] result in
            switch result {
            case .failure(let error):
                completion(.failure(.store(error)))
            case .success(.appended(let first)):
                guard case .leaderboard(let committed) = record.restamped(adding: first) else { return }
                self?.leaderboardLane.learn(committed.withoutRequest)
                completion(.success(LeaderboardCommitOutcome(board: committed, replayed: false)))
            case .success(.stale(let latest, let seen)):
                var newer = base
                if case .leaderboard(let board)?? = latest[field] {
                    newer = board.withoutRequest
                    self?.leaderboardLane.learn(board.withoutRequest)
                }
                var earlier: StoredLeaderboard?
                if case .board(let board)? = seen[0] { earlier = board }
                guard let self, attempt < Self.leaderboardAttempts else {
                    return completion(
                        .failure(
                            .store(.unreachable("other writers kept changing leaderboard \(request.id); nothing was applied"))))
                }
                attemptLeaderboard(request, base: newer, remembered: earlier, attempt: attempt + 1, completion)
            }
        }
    }
}
