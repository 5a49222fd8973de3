import RollboardAnimation
package import RollboardConfig
import RollboardNet
package import RollboardStore

/// A leaderboard tile as one screen sees it: the best rows of a board, sliding to new ranks with their scores
/// counting, through the tile's animation queue (duration, `maxLag`, queue policy); `null` until a board is set.
struct LeaderboardTile: QueuedTile {
    let tileID: String
    private(set) var queue: AnimationQueue<Leaderboard>
    /// Whether a board was ever set; until then the state is `null` (the page shows "—").
    private(set) var hasValue: Bool

    /// - Parameter entries: the stored board, or `nil` when none was set.
    init(
        tileID: String, leaderboard: Leaderboard, entries: [LeaderboardEntry]?, backlog: Int, maxLag: Double? = nil,
        policy: QueuePolicy = .fifo, at time: Double
    ) throws {
        self.tileID = tileID
        hasValue = entries != nil
        queue = try AnimationQueue(
            leaderboard, value: entries ?? [], at: time, backlog: backlog, maxLag: maxLag, policy: policy)
    }

    mutating func apply(_ change: TileChange, at time: Double) throws {
        guard case .leaderboard(let entries) = change else { return }
        if hasValue {
            try queue.enqueue(entries, at: time)
        } else {
            try queue.restart(on: entries, at: time)
            hasValue = true
        }
    }

    /// `{"n":[names],"t":[scores as written],"r":[ranks],"y":[lines in thousandths],"o":[opacities in thousandths]}`,
    /// one entry per row: the rows the board ends on first (in their final order), then the rows leaving; `behind` as
    /// other queued tiles. Five arrays rather than one object per row, so a frame carries only what moved: while rows
    /// slide, the lines.
    func state(at time: Double) -> TileState? {
        guard hasValue else { return nil }
        let rows = queue.state(at: time).rows
        func array(_ items: [String]) -> String { "[" + items.joined(separator: ",") + "]" }
        let members: [TileState.Member] = [
            .init("n", array(rows.map { JSONText.quoted($0.name) })),
            .init("t", array(rows.map { JSONText.quoted($0.text) })),
            .init("r", array(rows.map { String($0.rank) })),
            .init("y", array(rows.map { String(TileState.thousandths($0.position)) })),
            .init("o", array(rows.map { String(TileState.thousandths($0.opacity)) })),
        ]
        return TileState(members: members + behindMembers(at: time))
    }
}
