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
    private(set) var indicatorMembers: [TileState.Member] = []

    /// - Parameters:
    ///   - maxLag: how far the screen may fall behind the newest value, in seconds (`nil`: only the backlog bounds it).
    ///   - previous: the value before `value`, as the store's history has it: what `delta: previous` compares with
    ///     after a restart or a reload.
    init(
        tileID: String, configuration: OdometerConfiguration, value: Double?, backlog: Int, maxLag: Double? = nil,
        policy: QueuePolicy = .fifo, indicator: KPIIndicator? = nil, previous: Double? = nil, at time: Double
    ) throws {
        self.tileID = tileID
        hasValue = value != nil
        self.indicator = indicator
        queue = try AnimationQueue(
            Odometer(configuration: configuration), value: value ?? 0, at: time, backlog: backlog, maxLag: maxLag,
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
        var members: [TileState.Member] = []
        if state.width != Double(state.digits.count) { members.append(.init("width", jsonNumber(state.width))) }
        if queue.animator.configuration.compact { members.append(.init("unit", jsonNumber(state.unit))) }
        members.append(.init("negative", "\(state.negative)"))
        members.append(.init("target", jsonNumber(state.target, places: 6)))
        members += behindMembers(at: time)
        members += indicatorMembers
        return TileState(columns: state.digits.map { TileState.thousandths($0, modulo: 10_000) }, members: members)
    }
}
