/// A leaderboard tile's animator: the best `size` entries of a board as rows; a new board slides each row to its
/// new place while its score counts to the new one, and rows that enter or leave the top slide in from below the
/// last line (or out to it) while they fade.
public struct Leaderboard: TileAnimator {
    public typealias Value = [LeaderboardEntry]
    public typealias State = LeaderboardState
    public typealias Animation = LeaderboardAnimation

    /// Rows shown when the tile gives no `size`.
    public static let defaultSize = 10
    /// The largest `size` a tile may give.
    public static let maximumSize = 50

    /// How many rows are shown.
    public let size: Int
    /// Seconds a change takes unless it gives its own interval; how scores are written, and how motion eases.
    public let counter: CounterConfiguration

    /// Throws ``AnimationError/invalidConfiguration`` for a size outside 1…``maximumSize`` or a counter that does not
    /// validate.
    public init(size: Int = defaultSize, counter: CounterConfiguration) throws(AnimationError) {
        guard (1...Self.maximumSize).contains(size) else {
            throw AnimationError(.invalidConfiguration, "a leaderboard shows 1 to \(Self.maximumSize) rows, not \(size)")
        }
        try counter.validate()
        self.size = size
        self.counter = counter
    }

    /// The resting rows for `entries`: the best `size`, each on its line, fully shown.
    public func settle(_ entries: [LeaderboardEntry], after previous: LeaderboardState?) throws(AnimationError)
        -> LeaderboardState
    {
        for entry in entries {
            guard entry.value.isFinite else {
                throw AnimationError(.notFinite, "the score of \(entry.name) is not a finite number")
            }
            guard abs(entry.value * counter.format.scale) < NumberFormat.largestScaled else {
                throw AnimationError(
                    .outOfRange, "the score of \(entry.name), \(entry.value), is too large to show with "
                        + "\(counter.format.fractionDigits) decimal places")
            }
        }
        let ranked = LeaderboardEntry.ranked(entries)
        var rows: [LeaderboardRow] = []
        for (index, entry) in ranked.prefix(size).enumerated() {
            let rank = index > 0 && ranked[index - 1].value == entry.value ? rows[index - 1].rank : index + 1
            rows.append(
                LeaderboardRow(
                    name: entry.name, value: entry.value, text: counter.format.string(for: entry.value), rank: rank,
                    position: Double(index), opacity: 1))
        }
        return LeaderboardState(rows: rows, entries: ranked)
    }

    public func animation(from start: LeaderboardState, to end: LeaderboardState, interval: Double?)
        -> LeaderboardAnimation
    {
        LeaderboardAnimation(
            from: start, to: end, size: size, duration: interval ?? counter.duration, easing: counter.easing,
            format: counter.format)
    }

    /// Moves on from what `running` shows (or from rest on `start`) to `end`.
    public func retarget(
        from start: LeaderboardState, running: (animation: LeaderboardAnimation, elapsed: Double)?,
        to end: LeaderboardState, interval: Double?
    ) -> LeaderboardAnimation {
        let now = running.map { $0.animation.state(at: $0.elapsed) } ?? start
        return animation(from: now, to: end, interval: interval)
    }
}
