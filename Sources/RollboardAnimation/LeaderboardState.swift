/// What a leaderboard shows at one instant: its rows, the rows it ends on first in their final order, then the rows
/// leaving.
public struct LeaderboardState: Hashable, Sendable {
    public var rows: [LeaderboardRow]
    /// Every entry of the board (the rows show the best `size` of them), best first.
    public var entries: [LeaderboardEntry]

    public init(rows: [LeaderboardRow], entries: [LeaderboardEntry]) {
        self.rows = rows
        self.entries = entries
    }
}
