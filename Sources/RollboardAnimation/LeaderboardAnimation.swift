/// One leaderboard change: with u = easing(t / duration), every row goes from where it is to where it ends as
/// position = p₀ + (p₁ − p₀)·u, score = v₀ + (v₁ − v₀)·u and opacity = o₀ + (o₁ − o₀)·u. A row that enters starts
/// below the last line (position = size) at opacity 0 with its final score; a row that leaves ends there at opacity
/// 0 with the score it had. A score's text counts as a counter's does: rounded toward where it started, never past
/// the final score.
public struct LeaderboardAnimation: TileAnimation {
    public typealias State = LeaderboardState

    /// One row's path.
    struct Path: Sendable {
        var start: LeaderboardRow
        var end: LeaderboardRow
    }

    let paths: [Path]
    let final: LeaderboardState
    public let duration: Double
    let easing: CounterEasing
    let format: NumberFormat

    init(
        from start: LeaderboardState, to end: LeaderboardState, size: Int, duration: Double, easing: CounterEasing,
        format: NumberFormat
    ) {
        let below = Double(size)
        var paths: [Path] = []
        var starts: [String: LeaderboardRow] = [:]
        for row in start.rows { starts[row.name] = row }
        for row in end.rows {
            let from = starts.removeValue(forKey: row.name)
                ?? LeaderboardRow(
                    name: row.name, value: row.value, text: row.text, rank: row.rank, position: below, opacity: 0)
            paths.append(Path(start: from, end: row))
        }
        for row in start.rows where starts[row.name] != nil {
            var gone = row
            gone.position = below
            gone.opacity = 0
            paths.append(Path(start: row, end: gone))
        }
        self.paths = paths
        final = end
        self.duration = max(0, duration)
        self.easing = easing
        self.format = format
    }

    public func state(at elapsed: Double) -> LeaderboardState {
        guard elapsed < duration else { return final }
        let u = easing(elapsed / duration)
        let rows = paths.map { path in
            let value = path.start.value + (path.end.value - path.start.value) * u
            return LeaderboardRow(
                name: path.end.name, value: value, text: text(value, from: path.start.value, to: path.end),
                rank: path.end.rank, position: path.start.position + (path.end.position - path.start.position) * u,
                opacity: path.start.opacity + (path.end.opacity - path.start.opacity) * u)
        }
        return LeaderboardState(rows: rows, entries: final.entries)
    }

    /// The text of a score counting from `from` to `end`'s, `value` on the way.
    private func text(_ value: Double, from: Double, to end: LeaderboardRow) -> String {
        let to = end.value
        if from == to { return end.text }
        let upward = to >= from
        if format.compact {
            return format.compactString(upward ? min(value, to) : max(value, to), rounding: upward ? .down : .up)
        }
        let counted = format.countingScaled(value, upward: upward)
        let target = format.restingScaled(to)
        return format.string(scaled: upward ? min(counted, target) : max(counted, target))
    }
}
