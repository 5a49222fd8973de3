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
