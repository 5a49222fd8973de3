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

// Losing Redis and coming back, driven by ``RedisLinkMachine``: every input goes through `queue`, the machine decides,
// and `perform` carries its actions out; a reconnection never blocks the queue.
extension RedisChangeLog {
    /// A connection of `generation` failed: the machine drops both, refuses changes and plans a reconnection.
    func connectionLost(generation: Int, _ error: RedisError) {
        queue.async { [self] in
            let now = linkClock.now()
            let actions = state.withLock { state in
                state.statistics.disconnections += state.link.phase == .up && state.generation == generation ? 1 : 0
                return state.link.lost(
                    generation: generation, reason: "\(error)", now: now, jitter: Double.random(in: 0.8...1.2))
            }
            if !actions.isEmpty {
                logger.error("lost Redis; refusing changes until it answers again", metadata: ["error": "\(error)"])
            }
            perform(actions)
        }
    }

    func linkTimerFired() {
        dispatchPrecondition(condition: .onQueue(queue))
        // Once closing, the timer bounds the wait for the writes in flight.
        if state.withLock({ $0.closeWaiters != nil }) { return finishClosing() }
        // While recovering, the timer brings the recovery's next check.
        if let generation = state.withLock({ $0.link.phase == .recovering ? $0.generation : nil }) {
            return recoveryTimerFired(generation: generation)
        }
        perform(state.withLock { $0.link.timerFired(now: linkClock.now()) })
    }

    /// Carries out the machine's actions, in order, on `queue`.
    func perform(_ actions: [RedisLinkMachine.Action]) {
        dispatchPrecondition(condition: .onQueue(queue))
        for action in actions {
            switch action {
            case .dropConnections:
                let (writer, reader) = state.withLock { state in
                    defer {
                        state.writer = nil
                        state.reader = nil
                    }
                    state.statistics.isUp = false
                    return (state.writer, state.reader)
                }
                writer?.close()
                reader?.close()
            case .refuse(let reason):
                state.withLock { state in
                    let recovering = state.link.phase == .recovering
                    state.failure =
                        state.isClosed
                        ? .closed : reason.map { recovering ? StoreError.historyLost($0) : StoreError.unreachable($0) }
                    if reason == nil { state.statistics.isUp = true }
                }
            case .feed(let live):
                if live { logger.notice("Redis feed caught up; screens are live again") }
                for observer in feedObservers.withLock({ $0 }) { observer(live) }
            case .open(let generation):
                open(generation: generation)
            case .reconnect(let generation):
                reconnect(generation: generation)
            case .recover(let generation):
                recover(generation: generation)
            case .read(let generation):
                readNext(generation: generation, blocking: false)
            case .wake(let time):
                linkTimer.arm(at: time)
            }
        }
    }

    /// Opens fresh connections for `generation` and checks that Redis still holds this cluster's history, without
    /// waiting on the queue: each step answers on the connection's queue and the outcome comes back through `queue`.
    func reconnect(generation: Int) {
        let report: @Sendable (_ outcome: Result<(RedisConnection, RedisConnection), RedisError>, _ lost: String?) -> Void = {
            [weak self] outcome, lost in
            guard let self else { return }
            queue.async { [self] in
                let now = linkClock.now()
                switch (outcome, lost) {
                case (.success(let (writer, reader)), nil):
                    let actions = state.withLock { state -> [RedisLinkMachine.Action] in
                        let actions = state.link.reconnected(generation: generation)
                        if actions != [.dropConnections] {
                            state.writer = writer
                            state.reader = reader
                        }
                        return actions
                    }
                    if actions == [.dropConnections] {
                        writer.close()
                        reader.close()
                        return
                    }
                    let lastSeq = state.withLock { $0.model.lastSeq }
                    logger.notice("reconnected to Redis; reading the changes missed", metadata: ["lastSeq": "\(lastSeq)"])
                    perform(actions)
                case (.success(let (writer, reader)), let problem?):
                    let actions = state.withLock { state in
                        let actions = state.link.historyLost(generation: generation, problem: problem)
                        if !actions.isEmpty {
                            state.writer = writer
                            state.reader = reader
                        }
                        return actions
                    }
                    if actions.isEmpty {
                        writer.close()
                        reader.close()
                        return
                    }
                    logger.error("Redis lost this cluster's data; recovering", metadata: ["problem": "\(problem)"])
                    perform(actions)
                case (.failure(let error), _):
                    let actions = state.withLock {
                        $0.link.reconnectFailed(
                            generation: generation, reason: "\(error)", now: now, jitter: Double.random(in: 0.8...1.2))
                    }
                    logger.warning("Redis still out of reach", metadata: ["error": "\(error)"])
                    perform(actions)
                }
            }
        }
        let configuration = connectionConfiguration
        let keys = self.keys
        let epoch = self.epoch
        let lastSeq = state.withLock { $0.model.lastSeq }
        Self.connect(configuration) { writer in
            guard case .success(let writer) = writer else { return report(writer.map { ($0, $0) }, nil) }
            Self.connect(configuration) { reader in
                guard case .success(let reader) = reader else {
                    writer.close()
                    return report(reader.map { ($0, $0) }, nil)
                }
                let pair = (writer, reader)
                writer.send(["GET", keys.epoch], timeout: Self.commandTimeout) { storedEpoch in
                    writer.send(["GET", keys.sequence], timeout: Self.commandTimeout) { storedSeq in
                        switch (storedEpoch, storedSeq) {
                        case (.success(let epochReply), .success(let seqReply)):
                            let stored = epochReply.string
                            let sequence = seqReply.string.flatMap { UInt64($0) } ?? 0
                            let finding = RedisRecoveryMachine.Finding(
                                stored: stored, sequence: sequence, epoch: epoch, lastSeq: lastSeq)
                            guard finding == .intact else {
                                return report(
                                    .success(pair),
                                    stored == epoch
                                        ? "sequence \(sequence) behind this node's \(lastSeq)"
                                        : "epoch \(stored ?? "none") instead of \(epoch)")
                            }
                            report(.success(pair), nil)
                        case (.failure(let error), _), (_, .failure(let error)):
                            writer.close()
                            reader.close()
                            report(.failure(error), nil)
                        }
                    }
                }
            }
        }
    }

    /// A connection that finished connecting (and authenticating), or the error that stopped it; answers on the
    /// connection's queue.
    static func connect(
        _ configuration: RedisConnection.Configuration,
        completion: @escaping @Sendable (Result<RedisConnection, RedisError>) -> Void
    ) {
        let connection = RedisConnection(configuration: configuration, logger: Logger(label: "rollboard.redis"))
        connection.connect { result in
            switch result {
            case .success: completion(.success(connection))
            case .failure(let error):
                connection.close()
                completion(.failure(error))
            }
        }
    }
}
