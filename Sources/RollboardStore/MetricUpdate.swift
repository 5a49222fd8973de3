public import RollboardAnimation
package import RollboardConfig

/// A new value for one metric, as a producer posted it.
public struct MetricUpdate: Sendable, Equatable {
    public var id: String
    public var value: Double
    /// Seconds the animation to this value should take; `nil` lets the tile decide from the size of the change.
    public var interval: Double?
    /// `false` jumps straight to the value.
    public var animated = true
    /// What the tiles do with changes still playing; `nil` for each tile's own `queue` policy.
    public var policy: QueuePolicy?
    /// An amount to add to the metric's latest value instead of `value` (which is then ignored): the change log
    /// computes the total in its own order.
    public var increment: Double?
    /// A batch item's `eventId`: the same one again within a day is answered with this item's first answer.
    public var eventID: String?

    /// The update as the change log takes it (numbered and stamped by the log).
    package var stored: StoredMetric {
        StoredMetric(
            id: id, value: value, seq: 0, updatedAt: 0, interval: interval, animated: animated, policy: policy,
            increment: increment, eventID: eventID)
    }

    package init(
        id: String, value: Double, interval: Double? = nil, animated: Bool = true, policy: QueuePolicy? = nil,
        increment: Double? = nil, eventID: String? = nil
    ) {
        self.id = id
        self.value = value
        self.interval = interval
        self.animated = animated
        self.policy = policy
        self.increment = increment
        self.eventID = eventID
    }
}
