import RollboardAnimation
import RollboardNet

/// A counter tile as one screen sees it: its queue of counting changes, shown as formatted text.
struct CounterTile: QueuedTile {
    let tileID: String
    private(set) var queue: AnimationQueue<Counter>

    init(
        tileID: String, configuration: CounterConfiguration, value: Double, backlog: Int, maxLag: Double? = nil,
        policy: QueuePolicy = .fifo, at time: Double
    ) throws {
        self.tileID = tileID
        queue = try AnimationQueue(
            Counter(configuration: configuration), value: value, at: time, backlog: backlog, maxLag: maxLag,
            policy: policy)
    }

    mutating func apply(_ change: TileChange, at time: Double) throws {
        guard case .value(let value, let interval, let animated, let policy) = change else { return }
        try queue.enqueue(value, at: time, interval: interval, animated: animated, policy: policy)
    }

    func encodedState(at time: Double) -> String {
        let state = queue.state(at: time)
        return "{\"text\":\(JSONText.quoted(state.text)),\"target\":\(jsonNumber(state.target, places: 6))}"
    }
}
