import RollboardAnimation

/// A counter tile as one screen sees it: its queue of counting changes, shown as formatted text.
struct CounterTile: LiveTile {
    let tileID: String
    private(set) var queue: AnimationQueue<Counter>

    init(tileID: String, configuration: CounterConfiguration, value: Double, backlog: Int, at time: Double) throws {
        self.tileID = tileID
        queue = try AnimationQueue(Counter(configuration: configuration), value: value, at: time, backlog: backlog)
    }

    mutating func apply(_ change: TileChange, at time: Double) throws {
        guard case .value(let value, let interval, let animated) = change else { return }
        try queue.enqueue(value, at: time, interval: interval, animated: animated)
    }

    mutating func apply(viewerAction: CarouselViewerAction, page: Int?, at time: Double) {}

    func encodedState(at time: Double) -> String {
        let state = queue.state(at: time)
        return "{\"text\":\(jsonString(state.text)),\"target\":\(jsonNumber(state.target, places: 6))}"
    }

    func nextMotion(after time: Double) -> Double? {
        queue.isAtRest(at: time) ? nil : time
    }
}
