/// A node's leaderboard edits on Redis, one in flight at a time (the others wait their turn, in order), and the
/// newest board it knows per leaderboard. With one edit per node in flight, an edit meets a newer board only when
/// another node wrote one, so its retries are bounded by the cluster's size rather than by this node's load.
struct LeaderboardLane: Sendable {
    private(set) var busy = false
    private var waiting: [@Sendable () -> Void] = []
    /// Per leaderboard, the newest board this node committed or was shown.
    private(set) var known: [String: StoredLeaderboard] = [:]

    /// Whether `run` may start now; otherwise it is kept until the edits before it finish.
    mutating func admit(_ run: @escaping @Sendable () -> Void) -> Bool {
        if busy {
            waiting.append(run)
            return false
        }
        busy = true
        return true
    }

    /// The edit in flight is answered: the next one to run, if any waits.
    mutating func finish() -> (@Sendable () -> Void)? {
        if waiting.isEmpty {
            busy = false
            return nil
        }
        return waiting.removeFirst()
    }

    /// Keeps `board` unless a newer one is known.
    mutating func learn(_ board: StoredLeaderboard) {
        if (known[board.id]?.seq ?? 0) < board.seq { known[board.id] = board }
    }
}
