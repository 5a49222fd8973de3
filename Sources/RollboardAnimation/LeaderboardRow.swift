/// One row of a leaderboard as a frame shows it.
public struct LeaderboardRow: Hashable, Sendable {
    public var name: String
    /// The score shown now (it counts towards the row's final score while the row moves).
    public var value: Double
    /// The score as written: a counter's text, counted towards the final score (never past it).
    public var text: String
    /// The rank written in the row: 1 for the best, equal scores share a rank (1, 2, 2, 4).
    public var rank: Int
    /// Where the row stands, in rows from the top (0 is the first line); fractional while it slides, equal to the
    /// board's size while it is below the last line (entering or leaving).
    public var position: Double
    /// 1 when fully shown, 0 when gone; in between while the row fades in or out.
    public var opacity: Double

    public init(name: String, value: Double, text: String, rank: Int, position: Double, opacity: Double) {
        self.name = name
        self.value = value
        self.text = text
        self.rank = rank
        self.position = position
        self.opacity = opacity
    }
}
