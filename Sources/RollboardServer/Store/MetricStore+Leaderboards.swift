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
                let numbered = NumberedSeq()
                enqueue(
                    { seq, now in
                        let record = StoreChange.leaderboard(board).restamped(adding: seq).stamped(at: now)
                        if case .leaderboard(let board) = record { boards[id] = board }
                        numbered.value = seq
                        return record
                    }, count: 1
                ) { result in
                    switch result {
                    case .success(.leaderboard(let committed)):
                        completion(.success(committed))
                    case .success:
                        preconditionFailure("a leaderboard change commits as one")
                    case .failure(let error):
                        // The board numbered was not written: forget it, unless a later one replaced it. (Refused
                        // before it was numbered, this runs under the lane's lock and must leave the lane alone.)
                        let seq = numbered.value
                        if seq != 0 { self.leaderboardLane.withLock { if $0[id]?.seq == seq { $0[id] = nil } } }
                        completion(.failure(.store(error)))
                    }
                }
                return nil
            }
        }
        if let refusal { completion(.failure(.refused(refusal))) }
    }
}

/// The sequence number the journal gave a leaderboard edit, for its completion.
private final class NumberedSeq: @unchecked Sendable {  // Sendable: set under the store's lock, read after the commit.
    var value: UInt64 = 0
}
