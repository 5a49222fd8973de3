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

// Opening: connecting, agreeing on the epoch, loading the latest values and the history the stream holds, without
// waiting on any queue: each step answers on its connection's queue and the outcome comes back through `queue`, where
// ``RedisLinkMachine`` decides (a failure is tried again with backoff while the node serves, not ready).
extension RedisChangeLog {

    /// What an opening that worked brought: the two connections, the cluster's epoch, the values with their
    /// history, and the stream position they stand at.
    struct Opened: Sendable {
        /// Writes and pings.
        var writer: RedisConnection
        /// Follows the stream (`XREAD`).
        var reader: RedisConnection
        var epoch: String
        /// The latest values with the history the stream still holds.
        var model: StoreModel
        /// The id of the last stream entry `model` includes: where following the stream starts.
        var position: String
        /// The latest record of every metric, wheel, text, slide set and key, and the playlist commands the stream
        /// holds, in sequence order: what the subscribers are told once the log opened.
        var latest: [StoreChange]
    }

    /// Starts opening for `generation`; the outcome is reported on `queue`.
    func open(generation: Int) {
        dispatchPrecondition(condition: .onQueue(queue))
        Self.open(connectionConfiguration, keys: keys, historyLimit: historyLimit, seriesLimits: seriesLimits) {
            [weak self] outcome in
            guard let self else {
                if case .success(let opened) = outcome {
                    opened.writer.close()
                    opened.reader.close()
                }
                return
            }
            queue.async { [self] in opening(generation: generation, finished: outcome) }
        }
    }

    /// An opening finished: adopt what it loaded and tell the subscribers, or plan the next try.
    private func opening(generation: Int, finished outcome: Result<Opened, RedisError>) {
        dispatchPrecondition(condition: .onQueue(queue))
        switch outcome {
        case .failure(let error):
            let actions = state.withLock { state in
                state.link.reconnectFailed(
                    generation: generation, reason: "\(error)", now: linkClock.now(), jitter: Double.random(in: 0.8...1.2))
            }
            let retry = actions.compactMap { action -> Double? in
                if case .wake(let at?) = action { at - linkClock.now() } else { nil }
            }.first
            logger.warning(
                "waiting for Redis",
                metadata: [
                    "redis": "\(connectionConfiguration.url)", "error": "\(error)",
                    "retryIn": "\(retry.map { "\(($0 * 100).rounded() / 100) s" } ?? "-")",
                ])
            perform(actions)
        case .success(let opened):
            let actions = state.withLock { state -> [RedisLinkMachine.Action] in
                let actions = state.link.reconnected(generation: generation)
                guard actions != [.dropConnections] else { return actions }
                state.epoch = opened.epoch
                state.model = opened.model
                state.position = opened.position
                state.writer = opened.writer
                state.reader = opened.reader
                return actions
            }
            guard actions != [.dropConnections] else {
                opened.writer.close()
                opened.reader.close()
                return
            }
            logger.info(
                "change log on Redis",
                metadata: [
                    "redis": "\(connectionConfiguration.url)", "epoch": "\(opened.epoch)",
                    "lastSeq": "\(opened.model.lastSeq)", "position": "\(opened.position)",
                ])
            startPinging()
            // The values as they stand, not moves: screens that waited for Redis show them at once.
            deliver(opened.latest.map(\.atRest))
            perform(actions)
        }
    }

    /// Pings Redis once a second from now on.
    private func startPinging() {
        let starts = state.withLock { state in
            defer { state.isPinging = true }
            return !state.isPinging && !state.isClosed
        }
        if starts { pingTimer.arm(at: linkClock.now() + Self.pingInterval) }
    }

    /// Pings, and arms the timer for the next ping a second on.
    func pingTimerFired() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard state.withLock({ $0.isPinging && !$0.isClosed }) else { return }
        ping()
        pingTimer.arm(at: linkClock.now() + Self.pingInterval)
    }

    /// Connects twice, sets the shared epoch if no node did yet, loads the latest values and replays the stream for
    /// the history; `completion` is called once, on a connection's queue.
    static func open(
        _ configuration: RedisConnection.Configuration, keys: RedisKeys, historyLimit: Int, seriesLimits: SeriesLimits,
        completion: @escaping @Sendable (Result<Opened, RedisError>) -> Void
    ) {
        connect(configuration) { connectedWriter in
            let writer: RedisConnection
            switch connectedWriter {
            case .success(let connection): writer = connection
            case .failure(let error): return completion(.failure(error))
            }
            connect(configuration) { connectedReader in
                let reader: RedisConnection
                switch connectedReader {
                case .success(let connection): reader = connection
                case .failure(let error):
                    writer.close()
                    return completion(.failure(error))
                }
                let failed: @Sendable (RedisError) -> Void = { error in
                    writer.close()
                    reader.close()
                    completion(.failure(error))
                }
                let epoch: String
                do { epoch = try SecureRandom.hex(8) } catch { return failed(.protocolError("no random epoch: \(error)")) }
                call(writer, ["SET", keys.epoch, epoch, "NX"], failed) { _ in
                    call(writer, ["GET", keys.epoch], failed) { storedEpoch in
                        guard let epoch = storedEpoch.string else { return failed(.protocolError("the epoch key is empty")) }
                        load(writer, keys: keys, historyLimit: historyLimit, seriesLimits: seriesLimits, failed) {
                            loaded in
                            completion(
                                .success(
                                    Opened(
                                        writer: writer, reader: reader, epoch: epoch, model: loaded.model,
                                        position: loaded.position, latest: loaded.latest)))
                        }
                    }
                }
            }
        }
    }

    /// What Redis holds, loaded: the latest values with the history the stream still holds, the stream position they
    /// stand at, and what the subscribers are told (see ``Opened``).
    struct Loaded: Sendable {
        var model: StoreModel
        var position: String
        var latest: [StoreChange]
    }

    /// Loads the latest values and replays the stream for the history; `done` is called once, on the connection's
    /// queue, or `failed`.
    static func load(
        _ connection: RedisConnection, keys: RedisKeys, historyLimit: Int, seriesLimits: SeriesLimits,
        _ failed: @escaping @Sendable (RedisError) -> Void, done: @escaping @Sendable (Loaded) -> Void
    ) {
        call(connection, ["HGETALL", keys.latest], failed) { reply in
            guard let latest = RedisKeys.decodeLatest(reply) else {
                return failed(.protocolError("the latest-values hash is not what Rollboard writes"))
            }
            history(
                connection, keys: keys, upTo: latest.lastSeq,
                into: emptyModel(historyLimit: historyLimit, seriesLimits: seriesLimits), after: "-", failed
            ) { history in
                var model = history
                let records = latest.records.sorted { $0.lastSeq < $1.lastSeq }
                for record in records { model.adopt(record) }
                model.lastSeq = max(model.lastSeq, latest.lastSeq)
                // Playlist commands are events (not in the hash): the stream's, kept by the model.
                let commands = model.playlists.values.joined().map(StoreChange.playlist)
                done(
                    Loaded(
                        model: model, position: latest.position ?? "0",
                        latest: (records + commands).sorted { $0.lastSeq < $1.lastSeq }))
            }
        }
    }

    /// A model with nothing in it, as this log keeps one: the idempotency keys live in Redis, not in the model.
    static func emptyModel(historyLimit: Int, seriesLimits: SeriesLimits) -> StoreModel {
        StoreModel(historyLimit: historyLimit, seriesLimits: seriesLimits, remembersIdempotencyKeys: false)
    }

    /// Reads the stream from the oldest entry after `start` in pages, applying the changes up to `lastSeq` to
    /// `model`: the values with their history as the changes still in the stream leave them.
    private static func history(
        _ connection: RedisConnection, keys: RedisKeys, upTo lastSeq: UInt64, into model: StoreModel, after start: String,
        _ failed: @escaping @Sendable (RedisError) -> Void, done: @escaping @Sendable (StoreModel) -> Void
    ) {
        call(connection, ["XRANGE", keys.changes, start, "+", "COUNT", "1000"], failed) { reply in
            guard case .array(let entries) = reply else { return failed(.protocolError("XRANGE did not answer an array")) }
            var model = model
            var next = start
            for entry in entries {
                guard let decoded = RedisKeys.decodeEntry(entry) else {
                    // A kind a newer node wrote (a rolling upgrade) is passed over, so a page of them is not read again.
                    if let unknown = RedisKeys.decodeUnknownEntry(entry) {
                        if unknown.firstSeq > lastSeq { return done(model) }
                        next = "(" + unknown.id
                    }
                    continue
                }
                if decoded.firstSeq > lastSeq { return done(model) }
                model.apply(decoded.record)
                next = "(" + decoded.id
            }
            if entries.count < 1000 { return done(model) }
            history(connection, keys: keys, upTo: lastSeq, into: model, after: next, failed, done: done)
        }
    }

    /// Sends one command; `next` gets the reply, or `failed` the error (a Redis error reply included).
    static func call(
        _ connection: RedisConnection, _ arguments: [String], _ failed: @escaping @Sendable (RedisError) -> Void,
        next: @escaping @Sendable (RedisReply) -> Void
    ) {
        connection.send(arguments, timeout: commandTimeout) { result in
            switch result {
            case .success(.error(let message)): failed(.protocolError("Redis answered \(message)"))
            case .success(let reply): next(reply)
            case .failure(let error): failed(error)
            }
        }
    }
}
