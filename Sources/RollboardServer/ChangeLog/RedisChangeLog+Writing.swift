import Dispatch
public import Logging
import RollboardAnimation
import RollboardNet
import RollboardRedis
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// The write pipeline: the append script, and the ping that shows an outage while nobody writes.
extension RedisChangeLog {

    /// Runs the append script: the record's sequence numbers, one stream entry, the latest-value fields. The
    /// completion gets the first sequence number.
    func send(
        _ record: StoreChange,
        latest: [RedisKeys.LatestEntry],
        policies: [String]?,
        completion: @escaping @Sendable (Result<UInt64, StoreError>) -> Void
    ) {
        let started = monotonicSeconds()
        let admitted: Result<(RedisConnection, Int, Int), StoreError> = state.withLock { state in
            if let failure = state.failure { return .failure(failure) }
            guard let writer = state.writer else { return .failure(.unreachable("not connected")) }
            let ticket = state.nextTicket
            state.nextTicket += 1
            state.inFlight[ticket] = started
            return .success((writer, ticket, state.generation))
        }
        let writer: RedisConnection
        let ticket: Int
        let generation: Int
        switch admitted {
        case .failure(let error):
            completion(.failure(error))
            return
        case .success(let admission):
            (writer, ticket, generation) = admission
        }
        var arguments: [[UInt8]] = [
            Array("EVAL".utf8), Array(RedisKeys.appendScript.utf8), Array("3".utf8),
            Array(keys.sequence.utf8), Array(keys.changes.utf8), Array(keys.latest.utf8),
            Array("\(record.sequenceCount)".utf8), Array("\(streamLength)".utf8), record.payload,
            Array((policies?.joined(separator: ",") ?? "").utf8),
        ]
        for entry in latest {
            arguments.append(Array(entry.field.utf8))
            arguments.append(Array("\(entry.offset)".utf8))
            arguments.append(entry.record.payload)
        }
        writer.send(arguments, timeout: Self.commandTimeout) { [weak self] result in
            guard let self else { return }
            let seconds = monotonicSeconds() - started
            state.withLock { state in
                state.inFlight[ticket] = nil
                state.statistics.recordCommand(seconds: seconds)
            }
            switch result {
            case .success(.array(let parts)):
                if let first = parts.first?.integerValue, first > 0 {
                    for observer in commitObservers.withLock({ $0 }) { observer(seconds) }
                    completion(.success(UInt64(first)))
                } else {
                    completion(.failure(.unreachable("Redis answered the append script with \(parts)")))
                }
            case .success(.error(let message)):
                logger.error("Redis refused a change", metadata: ["error": "\(message)"])
                completion(.failure(.unreachable("Redis refused the change: \(message)")))
            case .success(let other):
                completion(.failure(.unreachable("Redis answered the append script with \(other)")))
            case .failure(let error):
                completion(
                    .failure(.unreachable("the connection to Redis failed before it confirmed the change: \(error)")))
                connectionLost(generation: generation, error)
            }
        }
    }

    /// Once a second: a `PING` on the writing connection, so an outage shows even while nobody writes, and the
    /// latency of Redis is measured.
    func ping() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard let (writer, generation) = state.withLock({ state in state.writer.map { ($0, state.generation) } })
        else { return }
        let started = monotonicSeconds()
        writer.send(["PING"], timeout: Self.commandTimeout) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success:
                let seconds = monotonicSeconds() - started
                state.withLock { $0.statistics.recordCommand(seconds: seconds) }
            case .failure(let error):
                connectionLost(generation: generation, error)
            }
        }
    }
}
