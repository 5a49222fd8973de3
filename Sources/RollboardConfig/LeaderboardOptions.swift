public import RollboardAnimation
package import RollboardCore

/// Options of a `leaderboard` tile: the best `size` entries of a board, each row's score written and counting as a
/// counter's value does.
public struct LeaderboardOptions: Sendable, Equatable {
    /// How many rows are shown (1 to ``Leaderboard/maximumSize``).
    public var size: Int
    /// How scores are written and how rows move (format, grouping, easing, duration, prefix, suffix, compact,
    /// locale): a counter's options.
    public var number: CounterOptions

    public init(size: Int = Leaderboard.defaultSize, number: CounterOptions = CounterOptions()) {
        self.size = size
        self.number = number
    }

    /// The animator these options describe.
    package func leaderboard() throws(AnimationError) -> Leaderboard {
        try Leaderboard(size: size, counter: try number.counter().configuration)
    }
}
