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

// The write pipeline: the append script, and the ping that shows an outage while nobody writes.
extension RedisChangeLog {

    /// What the append script did: appended the change from its first sequence number, or appended nothing because
    /// a guarded latest value changed (its record now, `nil` if unset) or an idempotency key (by its index among
    /// `remembering`) was already there (with its answer).
    enum AppendReply: Sendable {
        case appended(firstSeq: UInt64)
        case stale(latest: [String: StoreChange?], remembered: [Int: RememberedAnswer])
    }

    /// Runs the append script: the record's sequence numbers, one stream entry, the latest-value fields (with a metric
    /// batch's update policies), and the idempotency keys in `remembering`, unless a field in `guards` changed or a key
    /// exists.
    func send(
        _ record: StoreChange,
        guards: [RedisKeys.Guard] = [],
        remembering: [RedisKeys.RememberedKey] = [],
        completion: @escaping @Sendable (Result<AppendReply, StoreError>) -> Void
    ) {
        let started = linkClock.now()
        let admitted: Result<(RedisConnection, Int, Int, String), StoreError> = state.withLock { state in
            if let failure = state.failure { return .failure(failure) }
            guard let writer = state.writer else { return .failure(.unreachable("not connected")) }
            let ticket = state.nextTicket
            state.nextTicket += 1
            state.inFlight[ticket] = started
            return .success((writer, ticket, state.generation, state.epoch))
        }
        let writer: RedisConnection
        let ticket: Int
        let generation: Int
        let epoch: String
        switch admitted {
        case .failure(let error):
            completion(.failure(error))
            return
        case .success(let admission):
            (writer, ticket, generation, epoch) = admission
        }
        let latest = RedisKeys.latestEntries(of: record)
        var policies: [String]?
        if case .metrics(let metrics) = record, metrics.contains(where: { $0.policy != nil }) {
            policies = metrics.map { $0.policy?.rawValue ?? "" }
        }
        var arguments: [[UInt8]] = [
            Array("EVAL".utf8), Array(RedisKeys.appendScript.utf8), Array("\(7 + remembering.count)".utf8),
            Array(keys.sequence.utf8), Array(keys.changes.utf8), Array(keys.latest.utf8),
            Array(keys.idempotency.utf8), Array(keys.idempotencyOrder.utf8), Array(keys.idempotencyBytes.utf8),
        ]
        arguments += remembering.map { Array(keys.legacyIdempotency($0.key).utf8) }
        arguments.append(Array(keys.epoch.utf8))
        arguments += [
            Array("\(record.sequenceCount)".utf8), Array("\(streamLength)".utf8), record.payload,
            Array((policies?.joined(separator: ",") ?? "").utf8), Array("\(Int(IdempotencyMemory.lifetime))".utf8),
            Array("\(guards.count)".utf8), Array("\(remembering.count)".utf8),
            Array("\(record.updatedAt)".utf8), Array("\(idempotencyBudget)".utf8),
        ]
        for check in guards {
            arguments.append(Array(check.field.utf8))
            arguments.append(Array("\(check.seq)".utf8))
        }
        for key in remembering {
            let answer = key.encoded
            arguments.append(Array(key.key.utf8))
            arguments.append(Array("\(key.offset)".utf8))
            arguments.append(Array("\(IdempotencyMemory.cost(key: key.key, answer: answer))".utf8))
            arguments.append(answer)
        }
        for entry in latest {
            arguments.append(Array(entry.field.utf8))
            arguments.append(Array("\(entry.offset)".utf8))
            arguments.append(entry.record.payload)
        }
        arguments.append(RecentIdempotencyKeys.field(remembering))
        arguments.append(Array(epoch.utf8))
        writer.send(arguments, timeout: Self.commandTimeout) { [weak self] result in
            guard let self else { return }
            let seconds = linkClock.now() - started
            let lastBeforeClosing = state.withLock { state in
                state.inFlight[ticket] = nil
                state.statistics.recordCommand(seconds: seconds)
                return state.inFlight.isEmpty && state.closeWaiters != nil
            }
            if lastBeforeClosing { queue.async { [self] in finishClosing() } }
            switch result {
            case .success(.array(let parts)):
                if let first = parts.first?.integerValue, first > 0 {
                    confirmReplicas(on: writer) { [self] problem in
                        if let problem { return completion(.failure(problem)) }
                        for observer in commitObservers.withLock({ $0 }) { observer(seconds) }
                        completion(.success(.appended(firstSeq: UInt64(first))))
                    }
                } else if parts.first?.integerValue == 0, let stale = Self.decodeStale(parts.dropFirst()) {
                    // A remembered answer is given only once the replicas have what this connection wrote.
                    confirmReplicas(on: writer) { problem in completion(problem.map { .failure($0) } ?? .success(stale)) }
                } else {
                    completion(.failure(.unreachable("Redis answered the append script with \(parts)")))
                }
            case .success(.error(let message)) where message.hasPrefix("EPOCH "):
                // Redis lost its data under an open connection: refuse, and recover as a reconnection would.
                completion(.failure(.historyLost("Redis no longer holds epoch \(epoch)")))
                connectionLost(generation: generation, RedisError.protocolError("Redis no longer holds the epoch"))
            case .success(.error(let message)):
                logger.error("Redis refused a change", metadata: ["error": "\(message)"])
                completion(.failure(.unreachable("Redis refused the change: \(message)")))
                // A primary that became a replica: drop it and find the primary again (through Sentinel).
                if let demoted = SentinelMachine.demotion(in: .error(message), askedRole: false) {
                    connectionLost(generation: generation, .closed(demoted))
                }
            case .success(let other):
                completion(.failure(.unreachable("Redis answered the append script with \(other)")))
            case .failure(let error):
                completion(
                    .failure(.unreachable("the connection to Redis failed before it confirmed the change: \(error)")))
                connectionLost(generation: generation, error)
            }
        }
    }

    /// The script's `m`/`k` triples; `nil` if they are not what it writes.
    static func decodeStale(_ items: ArraySlice<RedisReply>) -> AppendReply? {
        guard items.count % 3 == 0 else { return nil }
        var latest: [String: StoreChange?] = [:]
        var remembered: [Int: RememberedAnswer] = [:]
        var index = items.startIndex
        while index < items.endIndex {
            guard let tag = items[index].string, let name = items[index + 1].string,
                case .bulk(let value) = items[index + 2]
            else { return nil }
            switch tag {
            case "m":
                if value.isEmpty {
                    latest[name] = .some(nil)
                } else {
                    guard let record = RedisKeys.decodeNumbered(value[...]) else { return nil }
                    latest[name] = record
                }
            case "k":
                guard let number = Int(name), let answer = RememberedAnswer(numbered: value[...]) else { return nil }
                remembered[number - 1] = answer
            default:
                return nil
            }
            index += 3
        }
        return .stale(latest: latest, remembered: remembered)
    }

    /// Once a second: the epoch read on the writing connection (a ping), so an outage shows even while nobody writes,
    /// a Redis that lost its data without dropping the connection (a `FLUSHALL`) is noticed like a reconnection
    /// would, and the latency of Redis is measured.
    func ping() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard let (writer, generation, epoch) = state.withLock({ state in
            state.link.phase == .up ? state.writer.map { ($0, state.generation, state.epoch) } : nil
        }) else { return }
        let started = linkClock.now()
        let readEpoch: @Sendable () -> Void = { [weak self] in
            guard let self else { return }
            writer.send(["GET", keys.epoch], timeout: Self.commandTimeout) { [weak self] result in
                guard let self else { return }
                switch result {
                case .success(let reply) where reply.string != epoch:
                    connectionLost(generation: generation, RedisError.protocolError("Redis no longer holds the epoch"))
                case .success:
                    let seconds = linkClock.now() - started
                    state.withLock { $0.statistics.recordCommand(seconds: seconds) }
                case .failure(let error):
                    connectionLost(generation: generation, error)
                }
            }
        }
        // With Sentinel, `ROLE` first: a primary that was turned into a replica is dropped even while nobody writes.
        guard !sentinelConfigurations.isEmpty else { return readEpoch() }
        writer.send(["ROLE"], timeout: Self.commandTimeout) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let reply):
                if let demoted = SentinelMachine.demotion(in: reply, askedRole: true) {
                    connectionLost(generation: generation, .closed(demoted))
                } else {
                    readEpoch()
                }
            case .failure(let error):
                connectionLost(generation: generation, error)
            }
        }
    }
}
