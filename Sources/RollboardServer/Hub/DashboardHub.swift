import Dispatch
import Foundation
import Logging
import RollboardNet

/// The live side of one dashboard: every connected screen's session, fed by producer changes and a frame clock.
///
/// All mutable state is confined to `queue`; public entry points hop onto it.
final class DashboardHub: @unchecked Sendable {  // Sendable: every mutable property is touched only on `queue`.
    /// How a hub behaves; the defaults suit a wall of TVs.
    struct Configuration: Sendable {
        var defaultFPS = 30
        var slowClientTimeout = 10.0
    }

    let dashboardID: String
    private let helloDashboard: String
    private let configuration: Configuration
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
    private var nextSessionID = 1
    private var timerArmedFor: Double?

    /// - Parameters:
    ///   - helloDashboard: the `dashboard` object of the hello message, already encoded.
    ///   - tiles: one live tile per dashboard tile, at rest at the current values, in layout order.
    ///   - tilesByMetric: which tiles show each metric.
    ///   - updatedAt: when each tile's current value was committed, in seconds since 1970.
    init(
        dashboardID: String,
        helloDashboard: String,
        tiles: [any LiveTile],
        tilesByMetric: [String: [String]],
        updatedAt: [String: Double] = [:],
        configuration: Configuration,
        clock: FrameClock,
        metrics: ServerMetrics,
        logger: Logger,
        target: DispatchQueue? = nil
    ) {
        self.dashboardID = dashboardID
        self.helloDashboard = helloDashboard
        self.reference = tiles
        self.tilesByMetric = tilesByMetric
        self.updatedAt = updatedAt
        self.configuration = configuration
        self.clock = clock
        self.metrics = metrics
        self.logger = logger
        self.queue = DispatchQueue(label: "rollboard.hub.\(dashboardID)", target: target)
        self.timer = DispatchSource.makeTimerSource(queue: queue)
        timer.setEventHandler { [weak self] in self?.tick() }
        timer.schedule(deadline: .distantFuture)
        timer.activate()
    }

    deinit {
        timer.cancel()
    }

    /// Adds a screen: it gets the hello with every tile's current state, then frames. Returns its session id.
    func connect(_ sink: any FrameSink, fps: Int?) -> Int {
        queue.sync {
            let id = nextSessionID
            nextSessionID += 1
            let now = clock.now()
            let session = ClientSession(
                id: id,
                sink: sink,
                tiles: reference,
                fps: min(max(fps ?? configuration.defaultFPS, 1), 60),
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
            return id
        }
    }

    /// Removes a screen that went away.
    func disconnect(_ sessionID: Int) {
        queue.async { [self] in
            guard let session = sessions.removeValue(forKey: sessionID) else { return }
            session.markClosed()
            metrics.webSocketSessionsChanged(by: -1)
        }
    }

    /// Applies a producer's change to every tile showing `metricID`, on every screen at once; `committedAt`
    /// (seconds since 1970) is when the change was stored.
    func apply(_ change: TileChange, toMetric metricID: String, committedAt: Double? = nil) {
        queue.async { [self] in
            let now = clock.now()
            for tileID in tilesByMetric[metricID] ?? [] {
                applyOnQueue(change, toTile: tileID, at: now)
                if let committedAt { updatedAt[tileID] = committedAt }
            }
            rearm(now: now)
        }
    }

    /// Applies a producer's change to one tile, on every screen at once.
    func apply(_ change: TileChange, toTile tileID: String) {
        queue.async { [self] in
            let now = clock.now()
            applyOnQueue(change, toTile: tileID, at: now)
            rearm(now: now)
        }
    }

    /// Handles a text message from one screen; malformed messages close it with 1007.
    func receive(text: String, from sessionID: Int) {
        queue.async { [self] in
            guard let session = sessions[sessionID] else { return }
            let now = clock.now()
            switch ClientMessage.parse(text) {
            case .success(.fps(let value)):
                session.setFPS(value, now: now)
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

    /// Closes every screen with 1001 (server going away).
    func closeAll() {
        queue.sync {
            for session in sessions.values {
                session.markClosed()
                session.sink.close(code: .goingAway, reason: "server shutting down")
            }
            sessions.removeAll()
        }
    }

    /// The number of connected screens.
    var sessionCount: Int {
        queue.sync { sessions.count }
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
        for session in sessions.values {
            switch session.tick(at: now, shared: shared) {
            case .idle: break
            case .sent(let bytes): metrics.frameSent(bytes: bytes)
            case .skipped: metrics.frameSkipped()
            case .closedAsTooSlow:
                metrics.slowClientClosed()
                logger.notice("closed a screen that stayed too slow", metadata: ["session": "\(session.id)"])
            }
        }
        rearm(now: now)
    }

    /// Arms the frame clock for the earliest time any session wants a frame, or lets it sleep.
    private func rearm(now: Double) {
        dispatchPrecondition(condition: .onQueue(queue))
        let wake = sessions.values.compactMap { $0.nextWakeup(after: now) }.min()
        guard let wake else { return }
        if let armed = timerArmedFor, armed <= wake { return }
        timerArmedFor = wake
        let delay = max(wake - now, 0)
        timer.schedule(deadline: .now() + delay, leeway: .milliseconds(1))
    }
}
