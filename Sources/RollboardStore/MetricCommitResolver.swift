package import RollboardCore
package import RollboardConfig

/// Turns a ``MetricCommitRequest`` into what a change log commits, given what it remembers and the metrics' latest
/// values in its own order. Both logs use it: the journal under its lock with the values of the changes it has
/// numbered, Redis with the latest values its script then checks are still the latest.
package enum MetricCommitResolver {
    /// One item of the outcome: remembered (an earlier commit's answer) or the part committed now at `offset`.
    package enum Slot: Equatable {
        case remembered(StoredMetric)
        case committed(offset: Int)
    }

    package enum Resolution {
        /// Every item was committed before: nothing to commit.
        case replay(MetricCommitOutcome)
        /// Commit `metrics` (numbered from 0, totals computed, keys set); `bases` holds per incremented id the latest
        /// value the totals started from (`nil`: never set, counted from 0).
        case commit(metrics: [StoredMetric], slots: [Slot], bases: [String: StoredMetric?])
        case refused(MetricCommitError)
    }

    /// Resolves `request`: `remembered` looks a memory key up, `latest` gives a metric's latest value.
    package static func resolve(
        _ request: MetricCommitRequest, remembered: (String) -> [StoredMetric]?, latest: (String) -> StoredMetric?
    ) -> Resolution {
        if let repeated = repeatedEventID(request.metrics) { return .refused(repeated) }
        if let key = request.requestKey, let earlier = remembered(IdempotencyMemory.requestKey(key)) {
            guard let answer = replaying(earlier, request, remembered: remembered) else {
                return .refused(
                    .refused(
                        item: nil, field: "Idempotency-Key",
                        reason: "\(quoted(key)) was used within the last day for a different request"))
            }
            return .replay(MetricCommitOutcome(metrics: answer, replayed: answer.map { _ in true }))
        }
        var committing: [StoredMetric] = []
        var slots: [Slot] = []
        var totals: [String: Double] = [:]
        var bases: [String: StoredMetric?] = [:]
        for (index, item) in request.metrics.enumerated() {
            if let id = item.eventID, let earlier = remembered(IdempotencyMemory.eventKey(id))?.first {
                guard matches(earlier, item) else {
                    return .refused(
                        .refused(
                            item: index, field: "eventId",
                            reason: "\(quoted(id)) was used within the last day for a different update"))
                }
                slots.append(.remembered(earlier))
                continue
            }
            var part = item
            part.seq = UInt64(committing.count)
            part.updatedAt = 0
            part.requestKey = nil
            if let increment = item.increment {
                if bases[item.id] == nil { bases[item.id] = .some(latest(item.id)) }
                let previous = totals[item.id] ?? bases[item.id].flatMap { $0?.value } ?? 0
                let total = previous + increment
                guard total.isFinite else {
                    return .refused(
                        .refused(item: index, field: "increment", reason: "the total would not be a finite number"))
                }
                if let problem = request.problem(item.id, total) {
                    return .refused(
                        .refused(
                            item: index, field: "increment",
                            reason: "the total \(formatNumber(total)) cannot be shown: \(problem)"))
                }
                part.value = total
            }
            totals[item.id] = part.value
            slots.append(.committed(offset: committing.count))
            committing.append(part)
        }
        guard !committing.isEmpty else {
            let metrics = slots.compactMap { slot -> StoredMetric? in
                if case .remembered(let metric) = slot { metric } else { nil }
            }
            return .replay(MetricCommitOutcome(metrics: metrics, replayed: metrics.map { _ in true }))
        }
        committing[0].requestKey = request.requestKey
        return .commit(metrics: committing, slots: slots, bases: bases)
    }

    /// The refusal of a batch two of whose items give the same `eventId` (the later one named), or `nil`.
    static func repeatedEventID(_ items: [StoredMetric]) -> MetricCommitError? {
        var first: [String: Int] = [:]
        for (index, item) in items.enumerated() {
            guard let id = item.eventID else { continue }
            if let earlier = first[id] { return .repeatedEventID(item: index, earlier: earlier) }
            first[id] = index
        }
        return nil
    }

    /// The outcome once `committed` (the parts as the log numbered and stamped them) is durable.
    package static func outcome(_ slots: [Slot], committed: [StoredMetric]) -> MetricCommitOutcome {
        var metrics: [StoredMetric] = []
        var replayed: [Bool] = []
        for slot in slots {
            switch slot {
            case .remembered(let metric):
                metrics.append(metric)
                replayed.append(true)
            case .committed(let offset):
                metrics.append(committed[offset])
                replayed.append(false)
            }
        }
        return MetricCommitOutcome(metrics: metrics, replayed: replayed)
    }

    /// The answer to a request whose `Idempotency-Key` committed `earlier`: per item, the earlier part it matches in
    /// order, or (an item its `eventId` had already answered then) the part its `eventId` remembers; `nil` when the
    /// request is not the one that used the key.
    static func replaying(
        _ earlier: [StoredMetric], _ request: MetricCommitRequest, remembered: (String) -> [StoredMetric]?
    ) -> [StoredMetric]? {
        var next = 0
        var answer: [StoredMetric] = []
        for item in request.metrics {
            if next < earlier.count, matches(earlier[next], item) {
                answer.append(earlier[next])
                next += 1
            } else if let id = item.eventID, let part = remembered(IdempotencyMemory.eventKey(id))?.first,
                matches(part, item)
            {
                answer.append(part)
            } else {
                return nil
            }
        }
        return next == earlier.count ? answer : nil
    }

    /// Whether an earlier part answers `item`: the same metric and the same value, or the same increment.
    static func matches(_ earlier: StoredMetric, _ item: StoredMetric) -> Bool {
        earlier.id == item.id && earlier.increment == item.increment
            && (item.increment != nil || earlier.value == item.value)
    }

    private static func quoted(_ text: String) -> String { IdempotencyMemory.shown(text) }
}
