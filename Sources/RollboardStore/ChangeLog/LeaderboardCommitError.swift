
/// Why a leaderboard edit was not committed.
public enum LeaderboardCommitError: Error, Sendable, Equatable {
    /// The log could not commit (it is failing, closed, or Redis is out of reach).
    case store(StoreError)
    /// The edit does not apply to the board as the log's order leaves it.
    case refused(LeaderboardEdit.Refusal)
}
