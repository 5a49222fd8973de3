import RollboardAnimation

/// An odometer tile as one screen sees it: its queue of rolling-digit changes.
struct OdometerTile: QueuedTile {
    let tileID: String
    private(set) var queue: AnimationQueue<Odometer>

    /// - Parameter maxLag: how far the screen may fall behind the newest value, in seconds (`nil`: only the backlog
    ///   bounds it).
    init(
        tileID: String, configuration: OdometerConfiguration, value: Double, backlog: Int, maxLag: Double? = nil,
        policy: QueuePolicy = .fifo, at time: Double
    ) throws {
        self.tileID = tileID
        queue = try AnimationQueue(
            Odometer(configuration: configuration), value: value, at: time, backlog: backlog, maxLag: maxLag,
            policy: policy)
    }

    mutating func apply(_ change: TileChange, at time: Double) throws {
        guard case .value(let value, let interval, let animated, let policy) = change else { return }
        try queue.enqueue(value, at: time, interval: interval, animated: animated, policy: policy)
    }

    func encodedState(at time: Double) -> String {
        let state = queue.state(at: time)
        var text = "{\"digits\":["
        for (index, digit) in state.digits.enumerated() {
            if index > 0 { text += "," }
            text += jsonNumber(digit)
        }
        text += "],\"negative\":\(state.negative),\"target\":\(jsonNumber(state.target, places: 6))}"
        return text
    }
}
