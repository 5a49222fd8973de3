package import RollboardConfig

/// A scheduled source's health turned (docs/sources.md): committed by the node that polls it, so that the screens of
/// every node show its tiles stale with the reason, or no longer. An event: it moves screens and leaves no state in
/// the store.
public struct StoredSourceHealth: StoredChangePart {
    /// The source's id.
    public var id: String
    /// The metrics it feeds: their tiles are the ones marked.
    public var metrics: [String]
    /// Why its last fetch failed; `nil` once it gives values again.
    public var reason: String?
    public var seq: UInt64
    /// Seconds since 1970-01-01 UTC.
    public var updatedAt: Double

    public init(id: String, metrics: [String], reason: String?, seq: UInt64 = 0, updatedAt: Double = 0) {
        self.id = id
        self.metrics = metrics
        self.reason = reason
        self.seq = seq
        self.updatedAt = updatedAt
    }
}

extension StoredSourceHealth {
    /// `seq: UInt64 | id | updatedAt: Float64 | down: UInt8 | reason (when down) | count: UInt32 | each metric id`.
    func encode(into writer: inout BinaryWriter) {
        writer.write(seq)
        writer.write(id)
        writer.write(updatedAt)
        writer.write(UInt8(reason == nil ? 0 : 1))
        if let reason { writer.write(reason) }
        writer.write(UInt32(metrics.count))
        for metric in metrics { writer.write(metric) }
    }

    init?(reader: inout BinaryReader) {
        guard let seq = reader.read(UInt64.self), let id = reader.readString(), let updatedAt = reader.readDouble(),
            let down = reader.read(UInt8.self), down <= 1
        else { return nil }
        var reason: String?
        if down == 1 {
            guard let text = reader.readString() else { return nil }
            reason = text
        }
        guard let count = reader.read(UInt32.self), count <= 10_000 else { return nil }
        var metrics: [String] = []
        for _ in 0..<count {
            guard let metric = reader.readString() else { return nil }
            metrics.append(metric)
        }
        self.init(id: id, metrics: metrics, reason: reason, seq: seq, updatedAt: updatedAt)
    }
}
