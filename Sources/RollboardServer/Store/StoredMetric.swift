public import RollboardAnimation

/// A metric's latest durable value with its place in the store's sequence.
public struct StoredMetric: Sendable, Equatable {
    public var id: String
    public var value: Double
    /// Position in the store's global sequence (every committed change gets the next number).
    public var seq: UInt64
    /// Wall-clock time of the commit, in seconds since 1970-01-01 UTC.
    public var updatedAt: Double
    /// The animation hints the producer gave with this value.
    public var interval: Double?
    public var animated: Bool
    /// The queue policy the producer gave with this value: a hint for the screens that see it arrive, not kept in the
    /// journal.
    public var policy: QueuePolicy?

    public init(
        id: String, value: Double, seq: UInt64, updatedAt: Double, interval: Double? = nil, animated: Bool = true,
        policy: QueuePolicy? = nil
    ) {
        self.id = id
        self.value = value
        self.seq = seq
        self.updatedAt = updatedAt
        self.interval = interval
        self.animated = animated
        self.policy = policy
    }

    /// This value as an entry of the metric's history.
    public var historyEntry: MetricHistoryEntry {
        MetricHistoryEntry(value: value, seq: seq, updatedAt: updatedAt)
    }
}
