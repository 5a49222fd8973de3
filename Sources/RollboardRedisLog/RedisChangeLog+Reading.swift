import Dispatch
public import Logging
import RollboardAnimation
package import RollboardConfig
package import RollboardCore
package import RollboardMetrics
import RollboardNet
import RollboardRedis
package import RollboardStore
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Following the stream: XREAD, applying entries in sequence order, resynchronising after a gap.
extension RedisChangeLog {

    /// Asks for the changes after the last one applied, blocking up to `blockMilliseconds` when there are none
    /// (unless `blocking` is false: the first read after a reconnection answers at once, so screens hear the feed is
    /// live as soon as nothing is missing).
    func readNext(generation: Int, blocking: Bool = true) {
        guard let (reader, position) = state.withLock({ state -> (RedisConnection, String)? in
            guard state.generation == generation, let reader = state.reader else { return nil }
            return (reader, state.position)
        }) else { return }
        let command =
            ["XREAD", "COUNT", "\(Self.readCount)"] + (blocking ? ["BLOCK", "\(Self.blockMilliseconds)"] : [])
            + ["STREAMS", keys.changes, position]
        reader.send(command, timeout: Double(Self.blockMilliseconds) / 1000 + Self.commandTimeout) {
            [weak self] result in
            guard let self else { return }
            switch result {
            case .success(.null):
                markFeedLive(generation: generation)
                readNext(generation: generation)
            case .success(.array(let streams)):
                let entries = streams.first.flatMap { stream -> [RedisReply]? in
                    guard case .array(let parts) = stream, parts.count == 2, case .array(let entries) = parts[1] else {
                        return nil
                    }
                    return entries
                }
                guard let entries else {
                    connectionLost(generation: generation, RedisError.protocolError("unexpected XREAD reply"))
                    return
                }
                apply(entries, generation: generation) { [weak self] in
                    guard let self else { return }
                    if entries.count < Self.readCount { markFeedLive(generation: generation) }
                    readNext(generation: generation)
                }
            case .success(let other):
                logger.error("Redis refused XREAD", metadata: ["reply": "\(other)"])
                connectionLost(generation: generation, RedisError.protocolError("XREAD answered \(other)"))
            case .failure(let error):
                connectionLost(generation: generation, error)
            }
        }
    }

    /// Applies stream entries in order and tells the subscribers; a gap in the sequence (the stream was trimmed past
    /// this node's position) reloads the latest values first. An entry of a kind this node does not know (a newer
    /// node's, during a rolling upgrade) is passed over: counted, logged once per kind, and the sequence numbers up to
    /// the next entry's are taken as its own (it may be a batch), so they are no gap. Calls `next` when done.
    func apply(_ entries: [RedisReply], generation: Int, next: @escaping @Sendable () -> Void) {
        var changes: [StoreChange] = []
        for entry in entries {
            let read: (id: String, firstSeq: UInt64, change: ReadChange)
            var keys: [RecentIdempotencyKeys.Key] = []
            if let decoded = RedisKeys.decodeEntry(entry) {
                read = (decoded.id, decoded.firstSeq, .known(decoded.record))
                keys = decoded.keys
            } else if let unknown = RedisKeys.decodeUnknownEntry(entry) {
                read = (unknown.id, unknown.firstSeq, .unknown(kind: unknown.kind))
            } else {
                logger.error("skipped a stream entry this node cannot read", metadata: ["entry": "\(entry)"])
                continue
            }
            let outcome: EntryOutcome = state.withLock { state in
                guard state.generation == generation else { return .stale }
                if read.firstSeq <= state.model.lastSeq {
                    state.position = read.id
                    return .alreadyApplied
                }
                if read.firstSeq > state.model.lastSeq + 1, !state.skippedUnknownKind {
                    return .gap(expected: state.model.lastSeq + 1)
                }
                state.position = read.id
                switch read.change {
                case .known(let record):
                    state.skippedUnknownKind = false
                    state.model.apply(record)
                    state.recentKeys.note(keys)
                    state.statistics.streamLagSeconds = max(0, clock() - record.updatedAt)
                    state.statistics.changesRead += 1
                    return .applied(record)
                case .unknown(let kind):
                    state.model.lastSeq = read.firstSeq
                    state.skippedUnknownKind = true
                    let seen = state.statistics.unknownChanges[kind, default: 0]
                    state.statistics.unknownChanges[kind] = seen + 1
                    return .skipped(firstOfItsKind: seen == 0)
                }
            }
            switch outcome {
            case .stale:
                return
            case .alreadyApplied:
                continue
            case .applied(let record):
                changes.append(record)
            case .skipped(let firstOfItsKind):
                guard firstOfItsKind, case .unknown(let kind) = read.change else { continue }
                logger.warning(
                    """
                    skipped changes of a kind this node does not know (a newer version wrote them: upgrade this node); \
                    each is counted in rollboard_redis_unknown_changes_total
                    """,
                    metadata: ["kind": "\(kind)", "seq": "\(read.firstSeq)"])
            case .gap(let expected):
                logger.warning(
                    "the stream no longer holds every change this node missed; loading the latest values",
                    metadata: ["expected": "\(expected)", "found": "\(read.firstSeq)"])
                deliver(changes)
                resynchronise(generation: generation, then: next)
                return
            }
        }
        deliver(changes)
        next()
    }

    /// A stream entry's change: one this node reads, or the kind byte of one it does not know.
    enum ReadChange {
        case known(StoreChange)
        case unknown(kind: UInt8)
    }

    enum EntryOutcome {
        case alreadyApplied, stale
        case applied(StoreChange)
        /// A change of a kind this node does not know, passed over; whether it is the first of its kind seen.
        case skipped(firstOfItsKind: Bool)
        case gap(expected: UInt64)
    }

    func deliver(_ changes: [StoreChange]) {
        guard !changes.isEmpty else { return }
        let handlers = subscribers.withLock { $0 }
        for change in changes {
            for handler in handlers { handler(change) }
        }
    }

    /// Loads the latest values and the stream position they stand at, and tells the subscribers of everything newer
    /// than what this node had.
    func resynchronise(generation: Int, then next: @escaping @Sendable () -> Void) {
        guard let reader = state.withLock({ $0.generation == generation ? $0.reader : nil }) else { return }
        reader.send(["HGETALL", keys.latest], timeout: Self.commandTimeout) { [weak self] result in
            guard let self else { return }
            guard case .success(let reply) = result, let latest = RedisKeys.decodeLatest(reply) else {
                connectionLost(generation: generation, RedisError.protocolError("HGETALL failed: \(result)"))
                return
            }
            let changes: [StoreChange]? = state.withLock { state in
                guard state.generation == generation else { return nil }
                let changed = latest.records.filter { $0.lastSeq > state.model.lastSeq }.sorted {
                    $0.lastSeq < $1.lastSeq
                }
                for record in changed { state.model.apply(record) }
                state.model.lastSeq = max(state.model.lastSeq, latest.lastSeq)
                if let position = latest.position { state.position = position }
                return changed
            }
            guard let changes else { return }
            deliver(changes)
            next()
        }
    }

    func markFeedLive(generation: Int) {
        let actions = state.withLock { $0.link.caughtUp(generation: generation) }
        guard !actions.isEmpty else { return }
        queue.async { [self] in perform(actions) }
    }
}
