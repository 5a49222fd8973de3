package import RollboardAccess
import RollboardAnimation
package import RollboardConfig
package import RollboardStore

/// A number tile as one screen sees it, odometer or counter: its queue of changes to the metric's value, with the
/// tile's status and change arrow when it has a goal, thresholds or an arrow. What a frame shows is the animator's
/// (``NumberTileAnimator``).
struct NumberTile<Animator: NumberTileAnimator>: QueuedTile {
    let tileID: String
    private(set) var queue: AnimationQueue<Animator>
    /// Whether the metric has a value yet; until it has, the state is `null` (the page shows "—"), and the first value
    /// rolls in from zero.
    private(set) var hasValue: Bool
    /// The tile's status and change arrow, if it has a goal, thresholds or an arrow.
    let indicator: KPIIndicator?
    /// The indicator's STATE members for the newest value (computed once per change, not per frame).
    private(set) var indicatorMembers: [TileState.Member] = []
    /// The sparkline under the number (`trend`), if any.
    private(set) var trend: TrendLine?

    /// - Parameters:
    ///   - maxLag: how far the screen may fall behind the newest value, in seconds (`nil`: only the backlog bounds it).
    ///   - previous: the value before `value`, as the store's history has it: what `delta: previous` compares with
    ///     after a restart or a reload.
    init(
        tileID: String, configuration: Animator.Configuration, value: Double?, backlog: Int, maxLag: Double? = nil,
        policy: QueuePolicy = .fifo, indicator: KPIIndicator? = nil, previous: Double? = nil, trend: TrendLine? = nil,
        at time: Double
    ) throws {
        self.tileID = tileID
        self.trend = trend
        hasValue = value != nil
        self.indicator = indicator
        queue = try AnimationQueue(
            Animator(configuration: configuration), value: value ?? 0, at: time, backlog: backlog, maxLag: maxLag,
            policy: policy)
        if let indicator, value != nil {
            indicatorMembers = indicator.members(target: newestTarget, previous: previous)
        }
    }

    mutating func apply(_ change: TileChange, at time: Double) throws {
        guard case .value(let value, let interval, let animated, let policy, let stored) = change else { return }
        try show(value, interval: interval, animated: animated, policy: policy, at: time)
        trend?.add(value, committedAt: stored?.time, at: time)
    }

    /// Moves to `value` leaving the sparkline as it is: a windowed tile's number is its window's, while its sparkline
    /// follows the metric's committed values (``addToTrend(_:at:)``).
    mutating func show(_ value: Double, interval: Double?, animated: Bool, policy: QueuePolicy?, at time: Double) throws {
        let previous = hasValue ? newestTarget : nil
        try queue.enqueue(value, at: time, interval: interval, animated: animated, policy: policy)
        hasValue = true
        if let indicator { indicatorMembers = indicator.members(target: newestTarget, previous: previous) }
    }

    /// Adds a committed change of the metric to the sparkline, in the bucket of its commit time.
    mutating func addToTrend(_ stored: MetricSeries.Point, at time: Double) {
        trend?.add(stored.value, committedAt: stored.time, at: time)
    }

    /// Shows no value (`null`, "—") from `time` until the next change, which rolls in from zero: a window that holds
    /// no change.
    mutating func clear(at time: Double) throws {
        try queue.enqueue(0, at: time, animated: false)
        hasValue = false
        indicatorMembers = []
    }

    /// The value the last queued change heads for.
    private var newestTarget: Double { queue.animator.target(of: queue.target) }

    func state(at time: Double) -> TileState? {
        guard hasValue else { return nil }
        return queue.animator.tileState(
            queue.state(at: time), then: behindMembers(at: time) + indicatorMembers + (trend.map { [$0.member] } ?? []))
    }
}

/// An odometer tile: rolling digit columns.
typealias OdometerTile = NumberTile<Odometer>
/// A counter tile: a number counting to its new value, shown as formatted text.
typealias CounterTile = NumberTile<Counter>
