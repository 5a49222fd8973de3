package import Dispatch
package import Foundation
package import Logging
package import RollboardAccess
package import RollboardConfig
package import RollboardCore
package import RollboardMetrics
package import RollboardNet
package import RollboardStore
import Synchronization

/// The live side of one dashboard: drives a ``HubStateMachine`` on its own serial queue with one timer on its frame
/// clock, and carries out its actions on the screens' WebSockets.
///
/// Entry points hop onto the queue asynchronously and never wait for it, so a busy hub cannot stall the network loop
/// that calls in. A stream's frame is compressed once (``BroadcastStream``) and the same bytes go to every screen in
/// step; each screen only pays its own TLS record and write, on its own connection's queue.
package final class DashboardHub: @unchecked Sendable {  // Sendable: every mutable property is touched only on `queue`.
    /// How a hub behaves; the defaults suit a wall of TVs.
    package struct Configuration: Sendable {
        var defaultFPS = ServerSettings.Limits.Defaults.defaultFPS
        /// The highest frame rate a screen gets, whether it asks in the URL or in an `fps` message.
        var maxFPS = ServerSettings.Limits.Defaults.maxFPS
        var slowClientTimeout = ServerSettings.Limits.Defaults.slowClientTimeout
        /// Every screen is calm (the dashboard's `motion: reduced`), whatever it asks for.
        var calm = false
        /// The page this node serves, told in every hello (``PageBuild``); `nil`: none.
        var page: PageBuild?
        /// How streams compress their frames (`nil`: not at all); screens that negotiated permessage-deflate get
        /// the compressed form they can take.
        var deflate: PerMessageDeflateConfiguration? = PerMessageDeflateConfiguration(
            minimumCompressedBytes: 0, allowsServerContextTakeover: true)

        /// `fps` brought into 1…`maxFPS`.
        func clampedFPS(_ fps: Int) -> Int {
            let range = ServerSettings.Limits.fpsRange
            return min(max(fps, range.lowerBound), max(range.lowerBound, min(maxFPS, range.upperBound)))
        }
    }

    package let dashboardID: String
    // Confined to `queue`.
    private var configuration: Configuration
    private let clock: FrameClock
    private let metrics: ServerMetrics
    private let logger: Logger
    private let queue: DispatchQueue
    private let timer: any ClockTimer
    /// The wall clock the tiles' offsets were read from, read again on every tick (a step of the system clock moves
    /// the clock, window and chart tiles to it); `nil`: never read again.
    private let wall: FrameClock?
    /// Where the store stands for this hub beyond the changes it was handed (``ChangeWatermark``); `nil`: nowhere else.
    private let routed: ChangeWatermark?
    private let nextSessionID = Atomic<Int>(1)
    private let connectedCount = Atomic<Int>(0)
    // Confined to `queue`.
    private var machine: HubStateMachine
    private var sinks: [Int: any FrameSink] = [:]
    private var broadcastStreams: [StreamKey: BroadcastStream] = [:]
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
        epoch: String = "",
        storeSeq: UInt64 = 0,
        routed: ChangeWatermark? = nil,
        clock: FrameClock,
        wall: FrameClock? = nil,
        metrics: ServerMetrics,
        logger: Logger
    ) {
        self.dashboardID = dashboardID
        self.configuration = configuration
        self.clock = clock
        self.wall = wall
        self.routed = routed
        self.metrics = metrics
        self.logger = logger
        self.machine = HubStateMachine(
            helloDashboard: helloDashboard, tiles: tiles, tilesByMetric: tilesByMetric, updatedAt: updatedAt,
            configuration: configuration, epoch: epoch, storeSeq: storeSeq)
        self.queue = DispatchQueue(label: "rollboard.hub.\(dashboardID)")
        self.timer = clock.makeTimer(queue)
        timer.activate { [weak self] in self?.tick() }
    }

    deinit {
        timer.cancel()
    }

    /// Adds a screen: it gets the hello with every tile's current state, then frames (only final states when
    /// `calm`); a screen that comes back with `since` is shown what it missed. A `greeting` (a playlist's message)
    /// goes before the hello. Returns its session id.
    package func connect(
        _ sink: any FrameSink, fps: Int?, calm: Bool = false, since: ResumePoint? = nil, greeting: String? = nil
    ) -> Int {
        let id = nextSessionID.wrappingAdd(1, ordering: .relaxed).oldValue
        connectedCount.wrappingAdd(1, ordering: .relaxed)
        let changesThrough = routed?.value  // read before queueing: the changes up to it are ahead on the queue
        queue.async { [self] in
            sinks[id] = sink
            metrics.webSocketSessionsChanged(by: 1)
            if let greeting { sink.send(text: greeting) }
            let now = readWallClock()
            perform(machine.connect(id, fps: fps, calm: calm, since: since, changesThrough: changesThrough, now: now))
        }
        return id
    }

    /// Removes a screen that went away (or moves to another dashboard); `then` runs on the hub's queue once it is
    /// gone, after every message the hub sent it.
    package func disconnect(_ sessionID: Int, then: @escaping @Sendable () -> Void = {}) {
        queue.async { [self] in
            defer { then() }
            guard sinks.removeValue(forKey: sessionID) != nil else { return }
            sessionLeft()
            perform(machine.disconnect(sessionID, now: clock.now()))
        }
    }

    /// Applies a producer's change to every tile showing `metricID`, on every screen at once; `committedAt`
    /// (seconds since 1970) is when the change was stored, `seq` its number in the store. The directory calls it only
    /// for the metrics the dashboard shows.
    func apply(_ change: TileChange, toMetric metricID: String, committedAt: Double? = nil, seq: UInt64? = nil) {
        let now = clock.now()
        queue.async { [self] in
            perform(machine.apply(change, toMetric: metricID, committedAt: committedAt, seq: seq, now: now))
            metrics.queueLength(machine.queueLength(at: now), dashboard: dashboardID)
        }
    }

    /// Handles a text message from one screen; malformed messages close it with 1007. The message is parsed on the
    /// caller's queue; `done` runs once the hub has dealt with it.
    package func receive(text: String, from sessionID: Int, done: @escaping @Sendable () -> Void = {}) {
        let message = ClientMessage.parse(text)
        queue.async { [self] in
            defer { done() }
            perform(machine.receive(message, from: sessionID, now: clock.now()))
        }
    }

    /// Takes a changed configuration of the dashboard (a reload): every screen gets a fresh `hello`.
    func reconfigure(
        helloDashboard: String, tiles: [any LiveTile], tilesByMetric: [String: [String]], updatedAt: [String: Double],
        configuration: Configuration
    ) {
        queue.async { [self] in
            self.configuration = configuration
            broadcastStreams.removeAll()
            perform(
                machine.reconfigure(
                    helloDashboard: helloDashboard, tiles: tiles, tilesByMetric: tilesByMetric, updatedAt: updatedAt,
                    configuration: configuration, now: clock.now()))
        }
    }

    /// Closes every screen with `code` (a dashboard that a reload removed: 4404).
    func closeAll(code: WebSocketCloseCode, reason: String) {
        queue.async { [self] in
            perform(machine.closeAll(code: code, reason: reason))
        }
    }

    /// Every screen of the dashboard reloads its page.
    func reload() {
        queue.async { [self] in perform(machine.reload()) }
    }

    /// Every screen shows `text` full-screen for `seconds`, screens that connect meanwhile too; `0` takes it down.
    func announce(_ text: String, seconds: Double) {
        queue.async { [self] in perform(machine.announce(text, seconds: seconds, now: clock.now())) }
    }

    /// Tells the screens whether changes reach this node (`false` while the shared change log is out of reach);
    /// `epoch`, when given, is the store's from now on.
    func setFeed(live: Bool, epoch: String? = nil) {
        queue.async { [self] in perform(machine.setFeed(live: live, epoch: epoch)) }
    }

    /// Tells the screens which tiles' sources fail and why (`reason` `nil`: `metrics`' source is up again).
    func setSourceProblem(metrics: [String], reason: String?) {
        queue.async { [self] in perform(machine.setSourceProblem(metrics: metrics, reason: reason)) }
    }

    /// Screen `sessionID` shows `name` large for `seconds`.
    package func identify(_ sessionID: Int, name: String, seconds: Double) {
        queue.async { [self] in perform(machine.identify(sessionID, name: name, seconds: seconds)) }
    }

    /// Sends `text` to screen `sessionID` as a message of its own (in order with its frames).
    func send(_ text: String, toSession sessionID: Int) {
        queue.async { [self] in perform(machine.send(text, to: sessionID)) }
    }

    /// Calls `body` (on the hub's queue) with every screen's status, by session id.
    package func screenStatuses(_ body: @escaping @Sendable ([Int: ScreenStatus]) -> Void) {
        queue.async { [self] in body(machine.screenStatuses) }
    }

    /// Closes every screen with 1001 (server going away); `group` is left once they are all closed.
    func closeAll(_ group: DispatchGroup) {
        group.enter()
        queue.async { [self] in
            perform(machine.closeAll())
            group.leave()
        }
    }

    /// The number of connected screens, counting those whose connection is still on its way to the queue.
    var sessionCount: Int {
        connectedCount.load(ordering: .relaxed)
    }

    private func sessionLeft() {
        connectedCount.wrappingSubtract(1, ordering: .relaxed)
        metrics.webSocketSessionsChanged(by: -1)
    }

    private func tick() {
        dispatchPrecondition(condition: .onQueue(queue))
        timerArmedFor = nil
        let now = readWallClock()
        for (id, sink) in sinks {
            if sink.isWritable { machine.screenBecameWritable(id) } else { machine.screenIsFull(id) }
        }
        perform(machine.tick(now: now))
    }

    /// The hub's clock now, after giving the wall-clock tiles the wall clock's offset if it moved (read on every tick
    /// and when a screen connects: a step of the system clock shows from the next second, and a screen never starts
    /// on a stale day).
    private func readWallClock() -> Double {
        dispatchPrecondition(condition: .onQueue(queue))
        let now = clock.now()
        if let wall { perform(machine.wallClockRead(offset: wall.now() - now, now: now)) }
        return now
    }

    private func perform(_ actions: [HubAction]) {
        dispatchPrecondition(condition: .onQueue(queue))
        for action in actions {
            switch action {
            case .send(let text, let id):
                sinks[id]?.send(text: text)
                metrics.frameSent(bytes: text.utf8.count)
            case .broadcast(let rate, let text, let ids):
                var batch = FrameBatch(capacity: ids.count)
                for id in ids { sinks[id]?.join(&batch) }
                batch.send(broadcastStream(rate).message(text: text))
                metrics.framesSent(ids.count, bytes: ids.count * text.utf8.count)
            case .prime(let rate, let ids):
                guard let primer = broadcastStream(rate).primer() else { continue }
                for id in ids { sinks[id]?.send(primer) }
            case .endStream(let rate):
                broadcastStreams.removeValue(forKey: rate)
            case .close(let id, let code, let reason):
                guard let sink = sinks.removeValue(forKey: id) else { continue }
                sink.close(code: code, reason: reason)
                sessionLeft()
            case .closeTooSlow(let id):
                guard let sink = sinks.removeValue(forKey: id) else { continue }
                sink.close(code: .policyViolation, reason: "client too slow")
                sessionLeft()
                metrics.slowClientClosed()
                logger.notice("closed a screen that stayed too slow", metadata: ["session": "\(id)"])
            case .changeRefused(let tile, let reason):
                logger.error("change refused by tile", metadata: ["tile": "\(tile)", "error": "\(reason)"])
            case .skipped(let count):
                metrics.framesSkipped(count)
            case .wake(let time):
                arm(for: time)
            }
        }
    }

    private func broadcastStream(_ rate: StreamKey) -> BroadcastStream {
        if let stream = broadcastStreams[rate] { return stream }
        let stream = BroadcastStream(deflate: configuration.deflate)
        broadcastStreams[rate] = stream
        return stream
    }

    /// Arms the frame clock for `wake` unless it is already armed for earlier.
    private func arm(for wake: Double) {
        if let armed = timerArmedFor, armed <= wake { return }
        timerArmedFor = wake
        timer.arm(at: wake)
    }
}
