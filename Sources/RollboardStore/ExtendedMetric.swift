package import RollboardCore
package import RollboardConfig

/// A metric of a batch in the extended encoding of kind 9: what kind 1 writes for a ``StoredMetric``, then
/// `increment: Float64 (NaN = none) | eventID | requestKey` (each string `UInt32` length and UTF-8; length 0 = none).
/// Batches with an increment or an idempotency key use it; every other batch keeps kind 1, so journals written
/// before increments load unchanged.
struct ExtendedMetric: ExtendingPart {
    var base: StoredMetric

    func encode(into writer: inout BinaryWriter) {
        base.encode(into: &writer)
        writer.write(optional: base.increment)
        writer.write(base.eventID ?? "")
        writer.write(base.requestKey ?? "")
    }

    init(_ metric: StoredMetric) {
        base = metric
    }

    init?(reader: inout BinaryReader) {
        guard var metric = StoredMetric(reader: &reader), let increment = reader.readOptionalDouble(),
            let eventID = reader.readString(), let requestKey = reader.readString()
        else { return nil }
        metric.increment = increment
        metric.eventID = eventID.isEmpty ? nil : eventID
        metric.requestKey = requestKey.isEmpty ? nil : requestKey
        base = metric
    }
}
