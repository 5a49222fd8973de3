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

// Losing Redis and coming back: refusing changes, telling the feed observers, reconnecting with backoff.
extension RedisChangeLog {

    /// Drops both connections of `generation` (once), refuses changes, tells the feed observers, and plans a
    /// reconnection.
    func connectionLost(generation: Int, _ error: RedisError) {
        let dropped = state.withLock { state -> (RedisConnection?, RedisConnection?, Bool, Double)? in
            guard state.generation == generation, !state.isClosed else { return nil }
            state.generation += 1
            state.failure = .unreachable("\(error)")
            state.statistics.isUp = false
            state.statistics.disconnections += 1
            let wasLive = state.isFeedLive
            state.isFeedLive = false
            defer {
                state.writer = nil
                state.reader = nil
            }
            return (state.writer, state.reader, wasLive, state.reconnectDelay)
        }
        guard let (writer, reader, wasLive, delay) = dropped else { return }
        logger.error(
            "lost Redis; refusing changes until it answers again",
            metadata: ["error": "\(error)", "retryIn": "\(delay) s"])
        writer?.close()
        reader?.close()
        if wasLive {
            for observer in feedObservers.withLock({ $0 }) { observer(false) }
        }
        scheduleReconnect(after: delay)
    }

    func scheduleReconnect(after delay: Double) {
        let jittered = delay * Double.random(in: 0.8...1.2)
        queue.asyncAfter(deadline: .now() + jittered) { [weak self] in self?.reconnect() }
    }

    /// Opens fresh connections, checks that Redis still holds this cluster's history, and follows the stream from
    /// where this node stopped.
    func reconnect() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard !state.withLock({ $0.isClosed }) else { return }
        do {
            let writer = try Self.connected(connectionConfiguration)
            let reader: RedisConnection
            do {
                reader = try Self.connected(connectionConfiguration)
            } catch {
                writer.close()
                throw error
            }
            let storedEpoch = try Self.call(writer, ["GET", keys.epoch]).string
            let storedSeq = try Self.call(writer, ["GET", keys.sequence]).string.flatMap { UInt64($0) } ?? 0
            let lastSeq = state.withLock { $0.model.lastSeq }
            if storedEpoch != epoch || storedSeq < lastSeq {
                writer.close()
                reader.close()
                let problem =
                    "Redis lost this cluster's changes (epoch \(storedEpoch ?? "none") instead of \(epoch), "
                    + "sequence \(storedSeq) behind \(lastSeq)); restart the nodes"
                logger.critical("\(problem)")
                state.withLock { $0.failure = .unreachable(problem) }
                return
            }
            let generation = state.withLock { state in
                state.writer = writer
                state.reader = reader
                state.failure = state.isClosed ? .closed : nil
                state.reconnectDelay = Self.firstReconnectDelay
                state.statistics.isUp = true
                return state.generation
            }
            logger.notice("reconnected to Redis; reading the changes missed", metadata: ["lastSeq": "\(lastSeq)"])
            readNext(generation: generation, blocking: false)
        } catch {
            let delay = state.withLock { state in
                state.reconnectDelay = min(state.reconnectDelay * 2, Self.maximumReconnectDelay)
                return state.reconnectDelay
            }
            logger.warning("Redis still out of reach", metadata: ["error": "\(error)", "retryIn": "\(delay) s"])
            scheduleReconnect(after: delay)
        }
    }
}
