import RollboardAnimation

/// A wheel tile as one screen sees it: a position over its contents that eases towards each target.
struct WheelTile: QueuedTile {
    let tileID: String
    private(set) var queue: AnimationQueue<Wheel>

    init(
        tileID: String, wheel: Wheel, position: Double, backlog: Int, maxLag: Double? = nil,
        policy: QueuePolicy = .fifo, at time: Double
    ) throws {
        self.tileID = tileID
        queue = try AnimationQueue(wheel, value: position, at: time, backlog: backlog, maxLag: maxLag, policy: policy)
    }

    mutating func apply(_ change: TileChange, at time: Double) throws {
        switch change {
        case .wheelProgress(let progress):
            try queue.enqueue(queue.animator.position(forProgress: progress), at: time)
        case .wheelIndex(let index):
            try queue.enqueue(queue.animator.position(forIndex: index), at: time)
        case .value, .carousel, .text, .slides:
            return
        }
    }

    func state(at time: Double) -> TileState? {
        TileState(members: [.init("p", "\(TileState.thousandths(queue.state(at: time).position))")])
    }
}
