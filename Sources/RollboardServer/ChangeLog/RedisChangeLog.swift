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

/// The change log that several nodes share: every change is appended to one Redis Stream, and the latest value of
/// each metric, wheel, text and slide set kept in a hash, by one Lua script (atomically, with the next number of a
/// shared sequence); a completion reports success only once Redis answered. Every node, the writing one included,
/// learns of changes by reading the stream, so each sees them in the stream's order.
///
/// While Redis is out of reach, changes are refused (`StoreError.unreachable`) and the feed observers hear `false`;
/// the node reconnects with backoff, reads the stream from where it stopped (or, if the stream was trimmed past that
/// point, reloads the latest values) and tells the observers `true`. See `docs/cluster.md`.
public final class RedisChangeLog: ChangeLog {
    public let epoch: String
    private let keys: RedisKeys
    private let streamLength: Int
    private let connectionConfiguration: RedisConnection.Configuration
    private let historyLimit: Int
    private let logger: Logger
    private let clock: @Sendable () -> Double
    /// Reconnections are planned on this queue; each connection's replies arrive on the connection's own queue.
    private let queue = DispatchQueue(label: "rollboard.redis")
    private let state: Mutex<State>
    private let subscribers = Mutex<[@Sendable (StoreChange) -> Void]>([])
    private let commitObservers = Mutex<[@Sendable (Double) -> Void]>([])
    private let feedObservers = Mutex<[@Sendable (Bool) -> Void]>([])

    /// Changes read per `XREAD`; a shorter answer means this node has caught up.
    static let readCount = 512
    /// Milliseconds one `XREAD` blocks for when nothing is new.
    static let blockMilliseconds = 2_000
    /// Seconds a write or a ping may wait for Redis's answer before the connection counts as lost.
    static let commandTimeout = 3.0

    private struct State {
        var model: StoreModel
        /// The id of the last stream entry applied.
        var position: String
        /// Bumped on every reconnection: replies from an older connection are ignored.
        var generation = 0
        var writer: RedisConnection?
        var reader: RedisConnection?
        var failure: StoreError?
        var isFeedLive = true
        var isClosed = false
        var reconnectDelay = RedisChangeLog.firstReconnectDelay
        /// When each write in flight started (monotonic seconds), by ticket.
        var inFlight: [Int: Double] = [:]
        var nextTicket = 0
        var statistics = RedisStatistics()
        /// Pings Redis once a second (on `queue`).
        var pingTimer: (any DispatchSourceTimer)?
    }

    static let firstReconnectDelay = 0.1
    static let maximumReconnectDelay = 2.0

    /// Connects to Redis, agrees on the shared epoch and loads the latest values, waiting (and logging) until Redis
    /// answers; then follows the stream.
    ///
    /// - Parameters:
    ///   - historyLimit: past values kept per metric (from the changes this node saw).
    ///   - clock: wall-clock seconds since 1970, stamped on each change (default: the system clock).
    public init(
        settings: RedisSettings,
        historyLimit: Int = 100,
        logger: Logger,
        clock: (@Sendable () -> Double)? = nil
    ) throws {
        let url = try RedisURL(settings.url)
        var configuration = RedisConnection.Configuration(url: url)
        configuration.tls = ClientTLSOptions(trustedCertificatesPath: settings.caFile)
        configuration.name = "rollboard"
        self.connectionConfiguration = configuration
        self.keys = RedisKeys(prefix: settings.keyPrefix)
        self.streamLength = settings.streamLength
        self.historyLimit = historyLimit
        self.logger = logger
        self.clock = clock ?? { wallClock() }

        let opened = Self.openWaiting(configuration, keys: keys, historyLimit: historyLimit, logger: logger)
        self.epoch = opened.epoch
        self.state = Mutex(
            State(model: opened.model, position: opened.position, writer: opened.writer, reader: opened.reader))
        let (model, position) = state.withLock { ($0.model, $0.position) }
        logger.info(
            "change log on Redis",
            metadata: [
                "redis": "\(url)", "keyPrefix": "\(settings.keyPrefix)", "epoch": "\(epoch)",
                "lastSeq": "\(model.lastSeq)", "position": "\(position)",
            ])
        let queue = self.queue
        state.withLock { state in
            let pingTimer = DispatchSource.makeTimerSource(queue: queue)
            pingTimer.schedule(deadline: .now() + 1, repeating: 1, leeway: .milliseconds(100))
            pingTimer.setEventHandler { [weak self] in self?.ping() }
            pingTimer.activate()
            state.pingTimer = pingTimer
        }
        readNext(generation: 0)
    }

    deinit {
        state.withLock { $0.pingTimer?.cancel() }
    }

    // MARK: ChangeLog

    public var snapshot: StoreSnapshot {
        state.withLock { StoreSnapshot(model: $0.model) }
    }

    public var failure: StoreError? {
        state.withLock { $0.failure }
    }

    public var unconfirmedSeconds: Double? {
        let now = monotonicSeconds()
        return state.withLock { $0.inFlight.values.min() }.map { now - $0 }
    }

    /// Whether Redis answers and this node has read the stream up to its end.
    public var isFeedLive: Bool {
        state.withLock { $0.isFeedLive }
    }

    /// Counters and the latest latency and lag readings.
    public var statistics: RedisStatistics {
        state.withLock { $0.statistics }
    }

    public func append(
        _ updates: [MetricUpdate], completion: @escaping @Sendable (Result<[StoredMetric], StoreError>) -> Void
    ) {
        precondition(!updates.isEmpty, "append needs at least one update")
        let now = clock()
        let metrics = updates.enumerated().map { offset, update in
            StoredMetric(
                id: update.id, value: update.value, seq: UInt64(offset), updatedAt: now, interval: update.interval,
                animated: update.animated, policy: update.policy)
        }
        let latest = metrics.map { metric in
            RedisKeys.LatestEntry(field: "m:" + metric.id, offset: metric.seq, record: .metrics([metric]))
        }
        let policies = updates.contains { $0.policy != nil } ? updates.map { $0.policy?.rawValue ?? "" } : nil
        commit(.metrics(metrics), count: updates.count, latest: latest, policies: policies) { result in
            completion(
                result.map { first in
                    metrics.map { metric in
                        var stored = metric
                        stored.seq = first + metric.seq
                        return stored
                    }
                })
        }
    }

    public func setWheel(
        _ id: String, target: WheelTarget, completion: @escaping @Sendable (Result<StoredWheel, StoreError>) -> Void
    ) {
        let wheel = StoredWheel(id: id, target: target, seq: 0, updatedAt: clock())
        commit(.wheel(wheel), count: 1, latest: [.init(field: "w:" + id, offset: 0, record: .wheel(wheel))]) { result in
            completion(result.map { StoredWheel(id: id, target: target, seq: $0, updatedAt: wheel.updatedAt) })
        }
    }

    public func setText(
        _ id: String, text: String, color: String?,
        completion: @escaping @Sendable (Result<StoredText, StoreError>) -> Void
    ) {
        let stored = StoredText(id: id, text: text, color: color, seq: 0, updatedAt: clock())
        commit(.text(stored), count: 1, latest: [.init(field: "t:" + id, offset: 0, record: .text(stored))]) { result in
            completion(
                result.map { StoredText(id: id, text: text, color: color, seq: $0, updatedAt: stored.updatedAt) })
        }
    }

    public func setSlides(
        _ id: String, slides: [ProducerSlide],
        completion: @escaping @Sendable (Result<StoredSlides, StoreError>) -> Void
    ) {
        precondition(!slides.isEmpty, "a carousel needs at least one slide")
        let stored = StoredSlides(id: id, slides: slides, seq: 0, updatedAt: clock())
        commit(.slides(stored), count: 1, latest: [.init(field: "s:" + id, offset: 0, record: .slides(stored))]) {
            result in
            completion(result.map { StoredSlides(id: id, slides: slides, seq: $0, updatedAt: stored.updatedAt) })
        }
    }

    public func commandCarousel(
        _ id: String, action: CarouselCommand.Action,
        completion: @escaping @Sendable (Result<StoredCarouselCommand, StoreError>) -> Void
    ) {
        let command = StoredCarouselCommand(id: id, action: action, seq: 0, updatedAt: clock())
        commit(.carousel(command), count: 1, latest: []) { result in
            completion(
                result.map { StoredCarouselCommand(id: id, action: action, seq: $0, updatedAt: command.updatedAt) })
        }
    }

    public func commandPlaylist(
        _ id: String, action: StoredPlaylistCommand.Action,
        completion: @escaping @Sendable (Result<StoredPlaylistCommand, StoreError>) -> Void
    ) {
        let command = StoredPlaylistCommand(id: id, action: action, seq: 0, updatedAt: clock())
        commit(.playlist(command), count: 1, latest: []) { result in
            completion(
                result.map { StoredPlaylistCommand(id: id, action: action, seq: $0, updatedAt: command.updatedAt) })
        }
    }

    public func commandScreens(
        _ action: StoredScreenCommand.Action,
        completion: @escaping @Sendable (Result<StoredScreenCommand, StoreError>) -> Void
    ) {
        let command = StoredScreenCommand(action: action, seq: 0, updatedAt: clock())
        commit(.screens(command), count: 1, latest: []) { result in
            completion(result.map { StoredScreenCommand(action: action, seq: $0, updatedAt: command.updatedAt) })
        }
    }

    public func subscribe(_ handler: @escaping @Sendable (StoreChange) -> Void) {
        subscribers.withLock { $0.append(handler) }
    }

    public func observeFeed(_ observer: @escaping @Sendable (Bool) -> Void) {
        feedObservers.withLock { $0.append(observer) }
    }

    public func observeCommits(_ observer: @escaping @Sendable (Double) -> Void) {
        commitObservers.withLock { $0.append(observer) }
    }

    /// Refuses new changes, waits up to two seconds for Redis to answer the writes in flight, then disconnects.
    public func close() {
        state.withLock { state in
            state.isClosed = true
            state.failure = .closed
        }
        let deadline = monotonicSeconds() + 2
        while state.withLock({ !$0.inFlight.isEmpty }), monotonicSeconds() < deadline {
            usleep(5_000)
        }
        let (writer, reader) = state.withLock { state in
            state.pingTimer?.cancel()
            state.generation += 1
            defer {
                state.writer = nil
                state.reader = nil
            }
            return (state.writer, state.reader)
        }
        writer?.close()
        reader?.close()
    }

    // MARK: Writing

    /// Runs the append script: the next `count` sequence numbers, one stream entry, the latest-value fields. The
    /// completion gets the first sequence number.
    private func commit(
        _ record: JournalRecord,
        count: Int,
        latest: [RedisKeys.LatestEntry],
        policies: [String]? = nil,
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
            Array("\(count)".utf8), Array("\(streamLength)".utf8), record.payload,
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
    private func ping() {
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

    // MARK: Reading

    /// Asks for the changes after the last one applied, blocking up to `blockMilliseconds` when there are none
    /// (unless `blocking` is false: the first read after a reconnection answers at once, so screens hear the feed is
    /// live as soon as nothing is missing).
    private func readNext(generation: Int, blocking: Bool = true) {
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
    /// this node's position) reloads the latest values first. Calls `next` when done.
    private func apply(_ entries: [RedisReply], generation: Int, next: @escaping @Sendable () -> Void) {
        var changes: [StoreChange] = []
        for entry in entries {
            guard let decoded = RedisKeys.decodeEntry(entry) else {
                logger.error("skipped a stream entry this node cannot read", metadata: ["entry": "\(entry)"])
                continue
            }
            let outcome: EntryOutcome = state.withLock { state in
                guard state.generation == generation else { return .stale }
                if decoded.firstSeq <= state.model.lastSeq {
                    state.position = decoded.id
                    return .alreadyApplied
                }
                if decoded.firstSeq > state.model.lastSeq + 1 { return .gap(expected: state.model.lastSeq + 1) }
                state.model.apply(decoded.record)
                state.position = decoded.id
                state.statistics.streamLagSeconds = max(0, clock() - decoded.record.updatedAt)
                state.statistics.changesRead += 1
                return .applied
            }
            switch outcome {
            case .stale:
                return
            case .alreadyApplied:
                continue
            case .applied:
                changes.append(decoded.record.change)
            case .gap(let expected):
                logger.warning(
                    "the stream no longer holds every change this node missed; loading the latest values",
                    metadata: ["expected": "\(expected)", "found": "\(decoded.firstSeq)"])
                deliver(changes)
                resynchronise(generation: generation, then: next)
                return
            }
        }
        deliver(changes)
        next()
    }

    private enum EntryOutcome {
        case applied, alreadyApplied, stale
        case gap(expected: UInt64)
    }

    private func deliver(_ changes: [StoreChange]) {
        guard !changes.isEmpty else { return }
        let handlers = subscribers.withLock { $0 }
        for change in changes {
            for handler in handlers { handler(change) }
        }
    }

    /// Loads the latest values and the stream position they stand at, and tells the subscribers of everything newer
    /// than what this node had.
    private func resynchronise(generation: Int, then next: @escaping @Sendable () -> Void) {
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
                return changed.map(\.change)
            }
            guard let changes else { return }
            deliver(changes)
            next()
        }
    }

    private func markFeedLive(generation: Int) {
        let becameLive = state.withLock { state in
            guard state.generation == generation, !state.isFeedLive else { return false }
            state.isFeedLive = true
            return true
        }
        guard becameLive else { return }
        logger.notice("Redis feed caught up; screens are live again")
        for observer in feedObservers.withLock({ $0 }) { observer(true) }
    }

    // MARK: Outages

    /// Drops both connections of `generation` (once), refuses changes, tells the feed observers, and plans a
    /// reconnection.
    private func connectionLost(generation: Int, _ error: RedisError) {
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

    private func scheduleReconnect(after delay: Double) {
        let jittered = delay * Double.random(in: 0.8...1.2)
        queue.asyncAfter(deadline: .now() + jittered) { [weak self] in self?.reconnect() }
    }

    /// Opens fresh connections, checks that Redis still holds this cluster's history, and follows the stream from
    /// where this node stopped.
    private func reconnect() {
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

    // MARK: Opening

    private struct Opened {
        var writer: RedisConnection
        var reader: RedisConnection
        var epoch: String
        var model: StoreModel
        var position: String
    }

    /// `open`, tried again with backoff until it works, each failure logged.
    private static func openWaiting(
        _ configuration: RedisConnection.Configuration, keys: RedisKeys, historyLimit: Int, logger: Logger
    ) -> Opened {
        var delay = firstReconnectDelay
        var attempt = 1
        while true {
            do {
                return try open(configuration, keys: keys, historyLimit: historyLimit, logger: logger)
            } catch {
                logger.warning(
                    "waiting for Redis",
                    metadata: [
                        "redis": "\(configuration.url)", "attempt": "\(attempt)", "error": "\(error)",
                        "retryIn": "\(delay) s",
                    ])
                usleep(useconds_t(delay * 1_000_000))
                delay = min(delay * 2, maximumReconnectDelay)
                attempt += 1
            }
        }
    }

    /// Connects twice, sets the shared epoch if no node did yet, and loads the latest values.
    private static func open(
        _ configuration: RedisConnection.Configuration, keys: RedisKeys, historyLimit: Int, logger: Logger
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
                var model = try history(writer, keys: keys, upTo: latest.lastSeq, historyLimit: historyLimit)
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
    private static func history(
        _ connection: RedisConnection, keys: RedisKeys, upTo lastSeq: UInt64, historyLimit: Int
    ) throws(RedisError) -> StoreModel {
        var model = StoreModel(historyLimit: historyLimit)
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
    private static func connected(_ configuration: RedisConnection.Configuration) throws(RedisError) -> RedisConnection {
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
    private static func call(_ connection: RedisConnection, _ arguments: [String]) throws(RedisError) -> RedisReply {
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

/// Seconds on the system's monotonic clock.
private func monotonicSeconds() -> Double {
    Double(DispatchTime.now().uptimeNanoseconds) / 1e9
}
