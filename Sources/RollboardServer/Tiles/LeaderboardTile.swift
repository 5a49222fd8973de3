import RollboardAnimation
import RollboardNet

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
            queue = try AnimationQueue(
                queue.animator, value: entries, at: time, backlog: queue.backlog, maxLag: queue.maxLag,
                policy: queue.policy)
            hasValue = true
        }
    }

    /// `{"rows":[{"n":name,"t":score as written,"r":rank,"y":line in thousandths,"o":opacity in thousandths},…]}`, the
    /// rows the board ends on first (in their final order), then the rows leaving; `behind` as other queued tiles.
    func state(at time: Double) -> TileState? {
        guard hasValue else { return nil }
        let rows = queue.state(at: time).rows.map { row in
            "{\"n\":\(JSONText.quoted(row.name)),\"t\":\(JSONText.quoted(row.text)),"
                + "\"r\":\(row.rank),\"y\":\(TileState.thousandths(row.position)),"
                + "\"o\":\(TileState.thousandths(row.opacity))}"
        }
        return TileState(members: [.init("rows", "[" + rows.joined(separator: ",") + "]")] + behindMembers(at: time))
    }
}
