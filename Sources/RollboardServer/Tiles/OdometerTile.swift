import RollboardAnimation

/// An odometer tile as one screen sees it: its queue of rolling-digit changes.
struct OdometerTile: QueuedTile {
    let tileID: String
    private(set) var queue: AnimationQueue<Odometer>
    /// Whether the metric has a value yet; until it has, the state is `null` (the page shows "—"), and the first value
    /// rolls in from zero.
    private(set) var hasValue: Bool
    /// The tile's status and change arrow, if it has a goal, thresholds or an arrow.
    let indicator: KPIIndicator?
    /// The indicator's STATE members for the newest value (computed once per change, not per frame).
    private(set) var indicatorMembers = ""

    /// - Parameter maxLag: how far the screen may fall behind the newest value, in seconds (`nil`: only the backlog
    ///   bounds it).
    init(
        tileID: String, configuration: OdometerConfiguration, value: Double?, backlog: Int, maxLag: Double? = nil,
        policy: QueuePolicy = .fifo, indicator: KPIIndicator? = nil, at time: Double
    ) throws {
        self.tileID = tileID
        hasValue = value != nil
        self.indicator = indicator
        queue = try AnimationQueue(
            Odometer(configuration: configuration), value: value ?? 0, at: time, backlog: backlog, maxLag: maxLag,
            policy: policy)
        if let indicator, value != nil { indicatorMembers = indicator.members(target: queue.target.target, previous: nil) }
    }

    mutating func apply(_ change: TileChange, at time: Double) throws {
        guard case .value(let value, let interval, let animated, let policy) = change else { return }
        let previous = hasValue ? queue.target.target : nil
        try queue.enqueue(value, at: time, interval: interval, animated: animated, policy: policy)
        hasValue = true
        if let indicator { indicatorMembers = indicator.members(target: queue.target.target, previous: previous) }
    }

    func encodedState(at time: Double) -> String {
        guard hasValue else { return "null" }
        let state = queue.state(at: time)
        var text = "{\"digits\":["
        for (index, digit) in state.digits.enumerated() {
            if index > 0 { text += "," }
            text += jsonNumber(digit)
        }
        text += "]"
        if state.width != Double(state.digits.count) { text += ",\"width\":\(jsonNumber(state.width))" }
        if queue.animator.configuration.compact { text += ",\"unit\":\(jsonNumber(state.unit))" }
        text += ",\"negative\":\(state.negative),\"target\":\(jsonNumber(state.target, places: 6))\(behindMember(at: time))\(indicatorMembers)}"
        return text
    }
}
