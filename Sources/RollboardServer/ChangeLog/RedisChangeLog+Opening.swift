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

// Opening: connecting, agreeing on the epoch, loading the latest values and the history the stream holds.
extension RedisChangeLog {

    struct Opened {
        var writer: RedisConnection
        var reader: RedisConnection
        var epoch: String
        var model: StoreModel
        var position: String
    }

    /// `open`, tried again with backoff until it works, each failure logged.
    static func openWaiting(
        _ configuration: RedisConnection.Configuration, keys: RedisKeys, historyLimit: Int,
        seriesLimits: SeriesLimits, logger: Logger
    ) -> Opened {
        var delay = RedisLinkMachine.firstDelay
        var attempt = 1
        while true {
            do {
                return try open(
                    configuration, keys: keys, historyLimit: historyLimit, seriesLimits: seriesLimits, logger: logger)
            } catch {
                logger.warning(
                    "waiting for Redis",
                    metadata: [
                        "redis": "\(configuration.url)", "attempt": "\(attempt)", "error": "\(error)",
                        "retryIn": "\(delay) s",
                    ])
                usleep(useconds_t(delay * 1_000_000))
                delay = min(delay * 2, RedisLinkMachine.maximumDelay)
                attempt += 1
            }
        }
    }

    /// Connects twice, sets the shared epoch if no node did yet, and loads the latest values.
    static func open(
        _ configuration: RedisConnection.Configuration, keys: RedisKeys, historyLimit: Int,
        seriesLimits: SeriesLimits, logger: Logger
    ) throws -> Opened {
        let writer = try connected(configuration)
        do {
            let reader = try connected(configuration)
            do {
                _ = try call(writer, ["SET", keys.epoch, try SecureRandom.hex(8), "NX"])
                guard let epoch = try call(writer, ["GET", keys.epoch]).string else {
                    throw RedisError.protocolError("the epoch key is empty")
                }
                guard let latest = RedisKeys.decodeLatest(try call(writer, ["HGETALL", keys.latest])) else {
                    throw RedisError.protocolError("the latest-values hash is not what Rollboard writes")
                }
                var model = try history(
                    writer, keys: keys, upTo: latest.lastSeq, historyLimit: historyLimit, seriesLimits: seriesLimits)
                for record in latest.records.sorted(by: { $0.lastSeq < $1.lastSeq }) { model.adopt(record) }
                model.lastSeq = max(model.lastSeq, latest.lastSeq)
                return Opened(writer: writer, reader: reader, epoch: epoch, model: model, position: latest.position ?? "0")
            } catch {
                reader.close()
                throw error
            }
        } catch {
            writer.close()
            throw error
        }
    }

    /// The values, with their history, as the changes still in the stream (up to `lastSeq`) leave them, read from
    /// the oldest in pages.
    static func history(
        _ connection: RedisConnection, keys: RedisKeys, upTo lastSeq: UInt64, historyLimit: Int,
        seriesLimits: SeriesLimits
    ) throws(RedisError) -> StoreModel {
        var model = StoreModel(
            historyLimit: historyLimit, seriesLimits: seriesLimits, remembersIdempotencyKeys: false)
        var start = "-"
        while true {
            guard case .array(let entries) = try call(connection, ["XRANGE", keys.changes, start, "+", "COUNT", "1000"])
            else { throw RedisError.protocolError("XRANGE did not answer an array") }
            for entry in entries {
                guard let decoded = RedisKeys.decodeEntry(entry) else { continue }
                if decoded.firstSeq > lastSeq { return model }
                model.apply(decoded.record)
                start = "(" + decoded.id
            }
            if entries.count < 1000 { return model }
        }
    }

    /// A connection that finished connecting (and authenticating), or the error that stopped it.
    static func connected(_ configuration: RedisConnection.Configuration) throws(RedisError) -> RedisConnection {
        let connection = RedisConnection(configuration: configuration, logger: Logger(label: "rollboard.redis"))
        let outcome = Mutex<Result<Void, RedisError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        connection.connect { result in
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        if case .failure(let error) = outcome.withLock({ $0 }) {
            connection.close()
            throw error
        }
        return connection
    }

    /// Sends one command and waits for its reply; a Redis error reply is thrown.
    static func call(_ connection: RedisConnection, _ arguments: [String]) throws(RedisError) -> RedisReply {
        let outcome = Mutex<Result<RedisReply, RedisError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        connection.send(arguments, timeout: commandTimeout) { result in
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        switch outcome.withLock({ $0 }) {
        case .success(.error(let message)): throw RedisError.protocolError("Redis answered \(message)")
        case .success(let reply): return reply
        case .failure(let error): throw error
        case nil: throw RedisError.protocolError("no reply")
        }
    }
}
