/// A wheel's latest durable target.
public struct StoredWheel: Sendable, Equatable {
    public var id: String
    public var target: WheelTarget
    public var seq: UInt64
    /// Seconds since 1970-01-01 UTC.
    public var updatedAt: Double

    public init(id: String, target: WheelTarget, seq: UInt64, updatedAt: Double) {
        self.id = id
        self.target = target
        self.seq = seq
        self.updatedAt = updatedAt
    }
}

/// Where a producer wants a wheel to go: a fraction of the way round, or a label's index.
public enum WheelTarget: Sendable, Equatable {
    /// In [0, 1]; the position is `contents.count × progress`.
    case progress(Double)
    case index(Int)
}
