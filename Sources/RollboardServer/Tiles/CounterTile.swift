import RollboardAnimation
import RollboardNet

/// A counter tile as one screen sees it: its queue of counting changes, shown as formatted text.
struct CounterTile: QueuedTile {
    let tileID: String
    private(set) var queue: AnimationQueue<Counter>
    /// Whether the metric has a value yet; until it has, the state is `null` (the page shows "—"), and the first value
    /// rolls in from zero.
    private(set) var hasValue: Bool
    /// The tile's status and change arrow, if it has a goal, thresholds or an arrow.
    let indicator: KPIIndicator?
    /// The indicator's STATE members for the newest value (computed once per change, not per frame).
    private(set) var indicatorMembers: [TileState.Member] = []

    init(
        tileID: String, configuration: CounterConfiguration, value: Double?, backlog: Int, maxLag: Double? = nil,
        policy: QueuePolicy = .fifo, indicator: KPIIndicator? = nil, previous: Double? = nil, at time: Double
    ) throws {
        self.tileID = tileID
        hasValue = value != nil
        self.indicator = indicator
        queue = try AnimationQueue(
            Counter(configuration: configuration), value: value ?? 0, at: time, backlog: backlog, maxLag: maxLag,
            policy: policy)
        if let indicator, value != nil {
            indicatorMembers = indicator.members(target: queue.target.target, previous: previous)
        }
    }

    mutating func apply(_ change: TileChange, at time: Double) throws {
        guard case .value(let value, let interval, let animated, let policy) = change else { return }
        let previous = hasValue ? queue.target.target : nil
        try queue.enqueue(value, at: time, interval: interval, animated: animated, policy: policy)
        hasValue = true
        if let indicator { indicatorMembers = indicator.members(target: queue.target.target, previous: previous) }
    }

    func state(at time: Double) -> TileState? {
        guard hasValue else { return nil }
        let state = queue.state(at: time)
        let members = [
            TileState.Member("text", JSONText.quoted(state.text)),
            TileState.Member("target", jsonNumber(state.target, places: 6)),
        ]
        return TileState(members: members + behindMembers(at: time) + indicatorMembers)
    }
}
