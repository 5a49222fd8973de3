import RollboardAnimation
package import RollboardConfig
package import RollboardStore

/// A wheel tile as one screen sees it: a position over its contents that eases towards each target.
struct WheelTile: QueuedTile {
    let tileID: String
    private(set) var queue: AnimationQueue<Wheel>
    /// Whether the wheel was ever set; until it is, the state is `null` (the page shows "—", never the first label),
    /// and the first target is shown at once rather than turned to from the first label.
    private(set) var hasValue: Bool

    /// - Parameter position: where the wheel stands, or `nil` when it was never set.
    init(
        tileID: String, wheel: Wheel, position: Double?, backlog: Int, maxLag: Double? = nil,
        policy: QueuePolicy = .fifo, at time: Double
    ) throws {
        self.tileID = tileID
        hasValue = position != nil
        queue = try AnimationQueue(
            wheel, value: position ?? 0, at: time, backlog: backlog, maxLag: maxLag, policy: policy)
    }

    mutating func apply(_ change: TileChange, at time: Double) throws {
        let position: Double
        switch change {
        case .wheelProgress(let progress):
            position = try queue.animator.position(forProgress: progress)
        case .wheelIndex(let index):
            position = try queue.animator.position(forIndex: index)
        case .value, .carousel, .text, .slides, .leaderboard:
            return
        }
        if hasValue {
            try queue.enqueue(position, at: time)
        } else {
            try queue.restart(on: position, at: time)
            hasValue = true
        }
    }

    func state(at time: Double) -> TileState? {
        guard hasValue else { return nil }
        return TileState(members: [.init("p", "\(TileState.thousandths(queue.state(at: time).position))")])
    }
}
