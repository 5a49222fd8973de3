public import RollboardAnimation
package import RollboardConfig
package import RollboardCore

/// A metric's latest durable value with its place in the store's sequence.
public struct StoredMetric: StoredChangePart {
    public var id: String
    public var value: Double
    /// Position in the store's global sequence (every committed change gets the next number).
    public var seq: UInt64
    /// Wall-clock time of the commit, in seconds since 1970-01-01 UTC.
    public var updatedAt: Double
    /// The animation hints the producer gave with this value.
    public var interval: Double?
    public var animated: Bool = true
    /// The queue policy the producer gave with this value: a hint for the screens that see it arrive, not kept in the
    /// journal.
    public var policy: QueuePolicy? = nil
    /// What the producer added, when it posted an increment: `value` is then the running total the change log
    /// computed from the metric's previous value in its own order.
    public var increment: Double? = nil
    /// The batch item's `eventId`: a later item with the same one within a day is answered with this part.
    public var eventID: String? = nil
    /// The request's `Idempotency-Key`, on the first part of the change it committed: a later request with the same
    /// key within a day is answered with the whole change.
    public var requestKey: String? = nil

    /// Whether the part needs the extended encoding (kind 9): it is an increment or carries an idempotency key.
    var isExtended: Bool { increment != nil || eventID != nil || requestKey != nil }

    /// This value as an entry of the metric's history.
    public var historyEntry: MetricHistoryEntry {
        MetricHistoryEntry(value: value, seq: seq, updatedAt: updatedAt)
    }
}

extension StoredMetric {
    /// `seq: UInt64 | id | value: Float64 | updatedAt: Float64 | interval: Float64 (NaN = none) | animated: UInt8`;
    /// the policy is not written.
    func encode(into writer: inout BinaryWriter) {
        writer.write(seq)
        writer.write(id)
        writer.write(value)
        writer.write(updatedAt)
        writer.write(optional: interval)
        writer.write(UInt8(animated ? 1 : 0))
    }

    init?(reader: inout BinaryReader) {
        guard let seq = reader.read(UInt64.self), let id = reader.readString(), let value = reader.readDouble(),
            let updatedAt = reader.readDouble(), let interval = reader.readOptionalDouble(),
            let animated = reader.read(UInt8.self)
        else { return nil }
        self.init(id: id, value: value, seq: seq, updatedAt: updatedAt, interval: interval, animated: animated != 0)
    }
}
