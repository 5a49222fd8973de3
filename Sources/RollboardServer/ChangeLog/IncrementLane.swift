/// A node's metric batches with increments take turns: one is in flight at a time, so the only writers racing for a
/// metric's latest value are the other nodes (a few), not every request this node has open. It also remembers the
/// latest value of each metric it incremented or was told about, which its model (fed by the stream) may not have
/// read yet.
struct IncrementLane: Sendable {
    var busy = false
    var waiting: [@Sendable () -> Void] = []
    var latest: [String: StoredMetric] = [:]

    /// Records `metric` as the latest of its id unless a newer one is known.
    mutating func learn(_ metric: StoredMetric) {
        if (latest[metric.id]?.seq ?? 0) < metric.seq { latest[metric.id] = metric }
    }
}
