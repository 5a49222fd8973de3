
/// One past value of a metric.
public struct MetricHistoryEntry: Sendable, Equatable {
    public var value: Double
    public var seq: UInt64
    public var updatedAt: Double
}
