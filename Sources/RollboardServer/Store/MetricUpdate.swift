public import RollboardAnimation

/// A new value for one metric, as a producer posted it.
public struct MetricUpdate: Sendable, Equatable {
    public var id: String
    public var value: Double
    /// Seconds the animation to this value should take; `nil` lets the tile decide from the size of the change.
    public var interval: Double?
    /// `false` jumps straight to the value.
    public var animated: Bool
    /// What the tiles do with changes still playing; `nil` for each tile's own `queue` policy.
    public var policy: QueuePolicy?

    public init(id: String, value: Double, interval: Double? = nil, animated: Bool = true, policy: QueuePolicy? = nil) {
        self.id = id
        self.value = value
        self.interval = interval
        self.animated = animated
        self.policy = policy
    }
}
