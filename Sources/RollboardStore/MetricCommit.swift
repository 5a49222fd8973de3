package import RollboardConfig

/// A metric batch as the API hands it to ``ChangeLog/commitMetrics(_:completion:)``: values and increments, with
/// their idempotency keys, which the change log resolves in its own order (see ``MetricCommitResolver``).
public struct MetricCommitRequest: Sendable {
    /// The batch's metrics in request order: `value` for a value; `increment` (and any `value`, ignored) for an
    /// increment; `eventID` for an item's `eventId`. Sequence numbers and times are the log's to set.
    public var metrics: [StoredMetric]
    /// The request's `Idempotency-Key`.
    public var requestKey: String?
    /// Why the tiles showing a metric cannot show a total (an increment's result), or `nil` when they can.
    public var problem: @Sendable (_ id: String, _ value: Double) -> String?

    public init(
        metrics: [StoredMetric], requestKey: String? = nil,
        problem: @escaping @Sendable (_ id: String, _ value: Double) -> String? = { _, _ in nil }
    ) {
        self.metrics = metrics
        self.requestKey = requestKey
        self.problem = problem
    }

    /// Every memory key the request names: its `Idempotency-Key` and its items' `eventId`s.
    var memoryKeys: [String] {
        (requestKey.map { [IdempotencyMemory.requestKey($0)] } ?? [])
            + metrics.compactMap { $0.eventID.map(IdempotencyMemory.eventKey) }
    }
}

/// What a metric batch came to: each item as committed now, or, for an idempotency key seen within a day, as it was
/// committed then (`replayed`), in request order.
public struct MetricCommitOutcome: Sendable, Equatable {
    public var metrics: [StoredMetric]
    /// Per item, whether it is an earlier commit's answer (nothing was applied for it now).
    public var replayed: [Bool]

    /// The highest sequence number among the items.
    public var seq: UInt64 { metrics.map(\.seq).max() ?? 0 }
}

/// Why a metric batch was not committed.
public enum MetricCommitError: Error, Equatable {
    /// The log could not make it durable.
    case store(StoreError)
    /// The batch cannot be committed: `item` (its index, `nil` for the request) and the field named, and why.
    case refused(item: Int?, field: String, reason: String)
    /// Item `item` of the batch gives the same `eventId` as the earlier item `earlier`: one batch names an event
    /// once, on every backend (nothing committed).
    case repeatedEventID(item: Int, earlier: Int)
}
