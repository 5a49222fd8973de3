import Dispatch
import Foundation
import Logging
import RollboardNet
import Synchronization

/// One share of a dashboard's screens, on its own serial queue with its own frame clock and its own copy of the
/// reference tiles; a `DashboardHub` spreads screens over a few shards so frames are computed on every core.
///
/// All mutable state is confined to `queue`; entry points hop onto it asynchronously and never wait for it, so a busy
/// shard cannot stall the network loop that calls in.
final class HubShard: @unchecked Sendable {  // Sendable: every mutable property is touched only on `queue`.
    private let helloDashboard: String
    private let configuration: DashboardHub.Configuration
    private let clock: FrameClock
    private let metrics: ServerMetrics
    private let logger: Logger
    private let queue: DispatchQueue
    private let timer: any DispatchSourceTimer
    private var reference: [any LiveTile]
    private var tilesByMetric: [String: [String]]
    /// When each tile's value last changed, in seconds since 1970 (wall clock).
    private var updatedAt: [String: Double]
    private var sessions: [Int: ClientSession] = [:]
    private var timerArmedFor: Double?
    private let connectedCount = Atomic<Int>(0)

    /// - Parameters:
    ///   - helloDashboard: the `dashboard` object of the hello message, already encoded.
    ///   - tiles: one live tile per dashboard tile, at rest at the current values, in layout order.
    ///   - tilesByMetric: which tiles show each metric.
    ///   - updatedAt: when each tile's current value was committed, in seconds since 1970.
    ///   - label: names the shard's queue.
    init(
        helloDashboard: String,
        tiles: [any LiveTile],
        tilesByMetric: [String: [String]],
        updatedAt: [String: Double],
        configuration: DashboardHub.Configuration,
        clock: FrameClock,
        metrics: ServerMetrics,
        logger: Logger,
        label: String
    ) {
        self.helloDashboard = helloDashboard
        self.reference = tiles
        self.tilesByMetric = tilesByMetric
        self.updatedAt = updatedAt
        self.configuration = configuration
        self.clock = clock
        self.metrics = metrics
        self.logger = logger
        self.queue = DispatchQueue(label: label)
        self.timer = DispatchSource.makeTimerSource(queue: queue)
        timer.setEventHandler { [weak self] in self?.tick() }
        timer.schedule(deadline: .distantFuture)
        timer.activate()
    }

    deinit {
        timer.cancel()
    }

    /// Adds a screen as session `id`: it gets the hello with every tile's current state, then frames.
    func connect(_ sink: any FrameSink, fps: Int?, id: Int) {
        connectedCount.wrappingAdd(1, ordering: .relaxed)
        queue.async { [self] in
            let now = clock.now()
            let session = ClientSession(
                id: id,
                sink: sink,
                tiles: reference,
                fps: configuration.clampedFPS(fps ?? configuration.defaultFPS),
                slowClientTimeout: configuration.slowClientTimeout,
                now: now
            )
            sessions[id] = session
            let hello = "{\"type\":\"hello\",\"protocol\":1,\"fps\":\(session.fps),"
                + "\"dashboard\":\(helloDashboard),\"tiles\":\(session.helloTiles(updatedAt: updatedAt))}"
            sink.send(text: hello)
            metrics.frameSent(bytes: hello.utf8.count)
            metrics.webSocketSessionsChanged(by: 1)
            rearm(now: now)
        }
    }

    /// Removes a screen that went away.
    func disconnect(_ sessionID: Int) {
        queue.async { [self] in
            guard let session = sessions.removeValue(forKey: sessionID) else { return }
            session.markClosed()
            connectedCount.wrappingSubtract(1, ordering: .relaxed)
            metrics.webSocketSessionsChanged(by: -1)
        }
    }

    /// Applies a producer's change, made at `time` on the hub's clock, to every tile showing `metricID`;
    /// `committedAt` (seconds since 1970) is when the change was stored.
    func apply(_ change: TileChange, toMetric metricID: String, committedAt: Double?, at time: Double) {
        queue.async { [self] in
            for tileID in tilesByMetric[metricID] ?? [] {
                applyOnQueue(change, toTile: tileID, at: time)
                if let committedAt { updatedAt[tileID] = committedAt }
            }
            rearm(now: clock.now())
        }
    }

    /// Handles one screen's parsed message (or its parse failure, which closes it with 1007); `done` runs once the
    /// shard has dealt with it.
    func receive(
        _ message: Result<ClientMessage, ClientMessage.ParseError>, from sessionID: Int,
        done: @escaping @Sendable () -> Void
    ) {
        queue.async { [self] in
            defer { done() }
            guard let session = sessions[sessionID] else { return }
            let now = clock.now()
            switch message {
            case .success(.fps(let value)):
                session.setFPS(configuration.clampedFPS(value), now: now)
            case .success(.pause):
                session.setPaused(true, now: now)
            case .success(.resume):
                session.setPaused(false, now: now)
            case .success(.carousel(let tileID, let action, let page)):
                session.apply(viewerAction: action, page: page, toTile: tileID, at: now)
            case .success(.ignored):
                break
            case .failure(let error):
                session.markClosed()
                session.sink.close(code: .invalidPayload, reason: error.detail)
            }
            rearm(now: now)
        }
    }

    /// Closes every screen with 1001 (server going away); `group` is left once they are all closed.
    func closeAll(_ group: DispatchGroup) {
        group.enter()
        queue.async { [self] in
            for session in sessions.values {
                session.markClosed()
                session.sink.close(code: .goingAway, reason: "server shutting down")
            }
            connectedCount.wrappingSubtract(sessions.count, ordering: .relaxed)
            sessions.removeAll()
            group.leave()
        }
    }

    /// The number of screens on this shard, counting those whose connection is still on its way to the queue.
    var sessionCount: Int {
        connectedCount.load(ordering: .relaxed)
    }

    private func applyOnQueue(_ change: TileChange, toTile tileID: String, at now: Double) {
        dispatchPrecondition(condition: .onQueue(queue))
        do {
            for index in reference.indices where reference[index].tileID == tileID {
                try reference[index].apply(change, at: now)
            }
            for session in sessions.values {
                try session.apply(change, toTile: tileID, at: now)
            }
        } catch {
            logger.error("change refused by tile", metadata: ["tile": "\(tileID)", "error": "\(error)"])
        }
    }

    private func tick() {
        dispatchPrecondition(condition: .onQueue(queue))
        timerArmedFor = nil
        let now = clock.now()
        let shared = SharedTileStates(tiles: reference, time: now)
        var sent = 0
        var bytes = 0
        var skipped = 0
        var wake: Double?
        for session in sessions.values {
            switch session.tick(at: now, shared: shared) {
            case .idle: break
            case .sent(let count):
                sent += 1
                bytes += count
            case .skipped: skipped += 1
            case .closedAsTooSlow:
                metrics.slowClientClosed()
                logger.notice("closed a screen that stayed too slow", metadata: ["session": "\(session.id)"])
            }
            if let next = session.nextWakeup(after: now) { wake = min(wake ?? next, next) }
        }
        metrics.framesSent(sent, bytes: bytes)
        metrics.framesSkipped(skipped)
        arm(for: wake, now: now)
    }

    /// Arms the frame clock for the earliest time any session wants a frame, or lets it sleep.
    private func rearm(now: Double) {
        dispatchPrecondition(condition: .onQueue(queue))
        arm(for: sessions.values.compactMap { $0.nextWakeup(after: now) }.min(), now: now)
    }

    /// Arms the frame clock for `wake` unless it is already armed for earlier; `nil` lets it sleep.
    private func arm(for wake: Double?, now: Double) {
        guard let wake else { return }
        if let armed = timerArmedFor, armed <= wake { return }
        timerArmedFor = wake
        let delay = max(wake - now, 0)
        timer.schedule(deadline: .now() + delay, leeway: .milliseconds(1))
    }
}
