import Dispatch
import RollboardAnimation
import Synchronization

// Leaderboard edits on the journal: resolved and numbered in one step, so the boards follow the journal's order.
extension MetricStore {
    /// Resolves `edit` against the last board numbered for `id` (a change still being written counts), under the
    /// lane's lock, and numbers the result before the lock is let go: two edits never start from the same board.
    public func commitLeaderboard(
        _ id: String, edit: LeaderboardEdit, limit: Int, problem: @escaping @Sendable (Double) -> String?,
        completion: @escaping @Sendable (Result<StoredLeaderboard, LeaderboardCommitError>) -> Void
    ) {
        let refusal: LeaderboardEdit.Refusal? = leaderboardLane.withLock { boards in
            let durable = snapshot.leaderboard(id)
            let base = [boards[id], durable].compactMap { $0 }.max { $0.seq < $1.seq }
            switch edit.resolved(against: base?.entries, limit: limit, problem: problem) {
            case .failure(let refusal):
                return refusal
            case .success(let entries):
                let board = StoredLeaderboard(id: id, entries: entries, seq: 0, updatedAt: 0)
                enqueue(
                    { seq, now in
                        let record = StoreChange.leaderboard(board).restamped(adding: seq).stamped(at: now)
                        if case .leaderboard(let numbered) = record { boards[id] = numbered }
                        return record
                    }, count: 1
                ) { result in
                    switch result {
                    case .success(.leaderboard(let committed)):
                        completion(.success(committed))
                    case .success:
                        preconditionFailure("a leaderboard change commits as one")
                    case .failure(let error):
                        // The board numbered may never be written: forget it (later, as this may run under the lock).
                        DispatchQueue.global().async { self.leaderboardLane.withLock { $0[id] = nil } }
                        completion(.failure(.store(error)))
                    }
                }
                return nil
            }
        }
        if let refusal { completion(.failure(.refused(refusal))) }
    }
}
