public import RollboardAnimation
public import RollboardConfig
public import RollboardCore
public import RollboardRedis
public import RollboardStore
import Synchronization

// Metric batches with increments and idempotency keys: resolved from the latest values this node knows, committed by
// the append script only if those are still the latest and no key is already there; otherwise resolved again from
// what the script answered.
extension RedisChangeLog {
    /// Tries before a batch is refused because other nodes kept changing its metrics in between (503).
    static let staleAttempts = 64

    public func commitMetrics(
        _ request: MetricCommitRequest,
        completion: @escaping @Sendable (Result<MetricCommitOutcome, MetricCommitError>) -> Void
    ) {
        guard request.metrics.contains(where: { $0.increment != nil }) else {
            return attempt(request, remembered: [:], attempt: 1, completion)
        }
        incrementLane.inTurn { [self] answered in
            attempt(request, remembered: [:], attempt: 1) { result in
                completion(result)
                answered()
            }
        }
    }

    private func attempt(
        _ request: MetricCommitRequest, remembered: [String: [StoredMetric]], attempt: Int,
        _ completion: @escaping @Sendable (Result<MetricCommitOutcome, MetricCommitError>) -> Void
    ) {
        let now = clock()
        let model = snapshot
        let resolution = MetricCommitResolver.resolve(
            request, remembered: { remembered[$0] },
            latest: { [incrementLane] id in incrementLane.newest(id, or: model.current(id)) })
        let change: StoreChange
        let slots: [MetricCommitResolver.Slot]
        let guards: [RedisKeys.Guard]
        switch resolution {
        case .replay(let outcome): return completion(.success(outcome))
        case .refused(let error): return completion(.failure(error))
        case .commit(let metrics, let resolvedSlots, let bases):
            change = StoreChange.metrics(metrics).stamped(at: now)
            slots = resolvedSlots
            guards = bases.map { RedisKeys.Guard(field: "m:" + $0.key, seq: $0.value?.seq ?? 0) }
                .sorted { $0.field < $1.field }
        }
        guard case .metrics(let metrics) = change else { preconditionFailure("a metric batch") }
        var remembering: [RedisKeys.RememberedKey] = []
        if let key = metrics[0].requestKey {
            remembering.append(
                .init(key: IdempotencyMemory.requestKey(key), offset: 0, answer: RememberedAnswer(metrics)))
        }
        for metric in metrics {
            guard let id = metric.eventID else { continue }
            var alone = metric
            alone.seq = 0
            remembering.append(
                .init(key: IdempotencyMemory.eventKey(id), offset: metric.seq, answer: RememberedAnswer([alone])))
        }
        let keysSent = remembering
        send(change, guards: guards, remembering: remembering) { [weak self] result in
            switch result {
            case .failure(let error):
                completion(.failure(.store(error)))
            case .success(.appended(let first)):
                guard case .metrics(let parts) = change.restamped(adding: first) else { return }
                for part in parts where part.increment != nil { self?.incrementLane.learn(part) }
                completion(.success(MetricCommitResolver.outcome(slots, committed: parts)))
            case .success(.stale(let latest, let seen)):
                guard let self, attempt < Self.staleAttempts else {
                    return completion(
                        .failure(.store(.unreachable("other nodes kept changing these metrics; nothing was applied"))))
                }
                for case .metrics(let parts)? in latest.values {
                    for part in parts { incrementLane.learn(part) }
                }
                var remembered = remembered
                for (index, answer) in seen where index < keysSent.count {
                    if case .metrics(let parts) = answer { remembered[keysSent[index].key] = parts }
                }
                self.attempt(request, remembered: remembered, attempt: attempt + 1, completion)
            }
        }
    }
}
