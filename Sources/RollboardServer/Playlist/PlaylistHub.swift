import Dispatch
import RollboardNet
import Synchronization

/// The live side of one playlist: one clock for every screen that follows it. When the rotation moves on, each
/// screen is sent a `{"type":"playlist",…}` message saying which entry shows, leaves the dashboard it showed and
/// joins the next one's hub, which sends it a fresh `hello`. Every screen of the playlist switches on the same timer
/// event; the entry showing is read off the wall clock against a shared epoch (``PlaylistSchedule``).
final class PlaylistHub: @unchecked Sendable {  // Sendable: every mutable property is touched only on `queue`.
    /// One screen following the playlist.
    private struct Screen {
        let socket: WebSocket
        let fps: Int?
        let calm: Bool
        let listing: (name: String?, address: String?, userAgent: String?, connectedAt: Double)
        var listedID: Int?
        var hub: DashboardHub?
        var sessionID: Int?
        /// Counts moves: a move that completes after a newer one started is dropped.
        var generation = 0
    }

    private let configurationBox: Mutex<PlaylistConfiguration>
    private let hubs: @Sendable (String) -> DashboardHub?
    private let registry: ScreenRegistry
    private let wallClock: @Sendable () -> Double
    private let queue: DispatchQueue
    private let timer: any DispatchSourceTimer
    private let nextScreenID = Atomic<Int>(1)
    // Confined to `queue`.
    private var schedule: PlaylistSchedule
    private var current: Int
    private var screens: [Int: Screen] = [:]
    /// The sequence number of the last operator command applied.
    private var appliedSeq: UInt64 = 0

    /// - Parameters:
    ///   - hubs: the hub of a dashboard, by id; every entry's dashboard has one.
    ///   - wallClock: seconds since 1970.
    init(
        configuration: PlaylistConfiguration, hubs: @escaping @Sendable (String) -> DashboardHub?,
        registry: ScreenRegistry, wallClock: @escaping @Sendable () -> Double = { RollboardServer.wallClock() }
    ) {
        self.configurationBox = Mutex(configuration)
        self.hubs = hubs
        self.registry = registry
        self.wallClock = wallClock
        self.schedule = PlaylistSchedule(durations: configuration.entries.map(\.seconds))
        self.current = schedule.entry(at: wallClock()).index
        self.queue = DispatchQueue(label: "rollboard.playlist.\(configuration.id)")
        self.timer = DispatchSource.makeTimerSource(queue: queue)
        timer.setEventHandler { [weak self] in self?.rotate() }
        timer.schedule(deadline: .distantFuture)
        timer.activate()
        queue.async { [self] in rotate() }
    }

    deinit {
        timer.cancel()
    }

    /// The playlist's entries and title, as last configured.
    var configuration: PlaylistConfiguration {
        configurationBox.withLock { $0 }
    }

    /// Takes a changed configuration (a reload): the rotation starts again from the shared epoch, and every screen
    /// is moved to the entry showing now.
    func reconfigure(_ configuration: PlaylistConfiguration) {
        queue.async { [self] in
            configurationBox.withLock { $0 = configuration }
            schedule = PlaylistSchedule(durations: configuration.entries.map(\.seconds))
            current = schedule.entry(at: wallClock()).index
            for id in screens.keys.sorted() { move(id, to: current) }
            rotate()
        }
    }

    /// Closes every screen with `code` (a playlist that a reload removed: 4404).
    func closeAll(code: WebSocketCloseCode, reason: String) {
        queue.async { [self] in
            for id in screens.keys.sorted() {
                guard let screen = screens.removeValue(forKey: id) else { continue }
                if let hub = screen.hub, let session = screen.sessionID { hub.disconnect(session) }
                if let listed = screen.listedID { registry.remove(listed) }
                screen.socket.close(code: code, reason: reason)
            }
            timer.schedule(deadline: .distantFuture)
        }
    }

    // MARK: Screens

    /// Adds a screen that follows the playlist (only final states when `calm`); returns its id.
    func connect(
        _ socket: WebSocket, fps: Int?, calm: Bool, name: String?, address: String?, userAgent: String?
    ) -> Int {
        let id = nextScreenID.wrappingAdd(1, ordering: .relaxed).oldValue
        let listing = (name: name, address: address, userAgent: userAgent, connectedAt: wallClock())
        queue.async { [self] in
            screens[id] = Screen(socket: socket, fps: fps, calm: calm, listing: listing)
            move(id, to: current)
        }
        return id
    }

    /// Removes a screen that went away.
    func disconnect(_ id: Int) {
        queue.async { [self] in
            guard let screen = screens.removeValue(forKey: id) else { return }
            if let hub = screen.hub, let session = screen.sessionID { hub.disconnect(session) }
            if let listed = screen.listedID { registry.remove(listed) }
        }
    }

    /// Hands a screen's message to the dashboard it shows now; `done` runs once that hub has dealt with it.
    func receive(text: String, from id: Int, done: @escaping @Sendable () -> Void) {
        queue.async { [self] in
            guard let screen = screens[id], let hub = screen.hub, let session = screen.sessionID else { return done() }
            hub.receive(text: text, from: session, done: done)
        }
    }

    // MARK: Remote control

    /// What the playlist shows: `(entry, held, seconds left)`, passed to `body` on the playlist's queue.
    func status(_ body: @escaping @Sendable (_ entry: Int, _ held: Bool, _ screens: Int) -> Void) {
        queue.async { [self] in body(current, schedule.held != nil, screens.count) }
    }

    /// Applies an operator's committed command as of the moment it was committed, so every node that applies it
    /// agrees: hold stops the rotation on the entry showing then, resume starts it again from the beginning of the
    /// held entry, show shows an entry for its full seconds (while held: the entry held). An entry beyond the
    /// playlist (it was reloaded shorter meanwhile) is ignored.
    func apply(_ command: StoredPlaylistCommand) {
        queue.async { [self] in
            guard command.seq > appliedSeq else { return }  // applied already (from the snapshot it started with)
            switch command.action {
            case .hold: schedule.hold(at: command.updatedAt)
            case .resume: schedule.resume(at: command.updatedAt)
            case .show(let entry):
                if schedule.durations.indices.contains(entry) { schedule.show(entry, at: command.updatedAt) }
            }
            appliedSeq = command.seq
            rotate(announce: true)
        }
    }

    /// Calls `body` on the playlist's queue once the command numbered `seq` (or a later one) has been applied, with
    /// `true`, or after `timeout` seconds with `false`.
    func whenApplied(_ seq: UInt64, timeout: Double = 2, _ body: @escaping @Sendable (Bool) -> Void) {
        let deadline = DispatchTime.now() + timeout
        queue.async { [self] in waitApplied(seq, until: deadline, body) }
    }

    private func waitApplied(_ seq: UInt64, until deadline: DispatchTime, _ body: @escaping @Sendable (Bool) -> Void) {
        dispatchPrecondition(condition: .onQueue(queue))
        if appliedSeq >= seq { return body(true) }
        if DispatchTime.now() >= deadline { return body(false) }
        queue.asyncAfter(deadline: .now() + .milliseconds(2)) { [self] in waitApplied(seq, until: deadline, body) }
    }

    /// Every screen of the playlist reloads its page.
    func reload() {
        queue.async { [self] in
            for screen in screens.values {
                if let hub = screen.hub, let session = screen.sessionID { hub.send(#"{"type":"reload"}"#, toSession: session) }
            }
        }
    }

    // MARK: The clock

    /// Moves every screen to the entry showing now if it changed (or, with `announce`, tells them the playlist's
    /// new state where it did not), then arms the timer for the entry's end.
    private func rotate(announce: Bool = false) {
        dispatchPrecondition(condition: .onQueue(queue))
        let now = wallClock()
        let (index, endsAt) = schedule.entry(at: now)
        if index != current {
            current = index
            for id in screens.keys.sorted() { move(id, to: index) }
        } else if announce {
            let message = playlistMessage()
            for screen in screens.values {
                if let hub = screen.hub, let session = screen.sessionID { hub.send(message, toSession: session) }
            }
        }
        if let endsAt {
            timer.schedule(deadline: .now() + max(endsAt - now, 0), leeway: .milliseconds(1))
        } else {
            timer.schedule(deadline: .distantFuture)
        }
    }

    /// Takes screen `id` off the dashboard it shows (after every message that hub sent it), tells it the playlist's
    /// state, and joins it to entry `index`'s hub.
    private func move(_ id: Int, to index: Int) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard var screen = screens[id] else { return }
        screen.generation += 1
        let generation = screen.generation
        let leaving = screen.hub.flatMap { hub in screen.sessionID.map { (hub, $0) } }
        screen.hub = nil
        screen.sessionID = nil
        screens[id] = screen
        let join: @Sendable () -> Void = { [self] in
            queue.async { [self] in
                guard var screen = screens[id], screen.generation == generation else { return }
                let configuration = configuration
                guard configuration.entries.indices.contains(index) else { return }
                let dashboard = configuration.entries[index].dashboard
                guard let hub = hubs(dashboard) else { return }
                screen.socket.send(text: playlistMessage())
                let session = hub.connect(screen.socket, fps: screen.fps, calm: screen.calm)
                screen.hub = hub
                screen.sessionID = session
                if let listed = screen.listedID {
                    registry.move(listed, to: dashboard, hub: hub, sessionID: session)
                } else {
                    screen.listedID = registry.add(
                        dashboard: dashboard, playlist: configuration.id, name: screen.listing.name,
                        address: screen.listing.address, userAgent: screen.listing.userAgent,
                        connectedAt: screen.listing.connectedAt, hub: hub, sessionID: session)
                }
                screens[id] = screen
            }
        }
        if let (hub, session) = leaving { hub.disconnect(session, then: join) } else { join() }
    }

    /// `{"type":"playlist","id":…,"title":…,"entries":[{"dashboard","seconds"},…],"current":K,"held":B,"endsIn":S}`.
    private func playlistMessage() -> String {
        let configuration = configuration
        let now = wallClock()
        let (index, endsAt) = schedule.entry(at: now)
        let entries = configuration.entries.map {
            "{\"dashboard\":\(JSONText.quoted($0.dashboard)),\"seconds\":\(jsonNumber($0.seconds, places: 3))}"
        }
        return "{\"type\":\"playlist\",\"id\":\(JSONText.quoted(configuration.id)),"
            + "\"title\":\(JSONText.quoted(configuration.title)),\"entries\":[\(entries.joined(separator: ","))],"
            + "\"current\":\(index),\"held\":\(schedule.held != nil),"
            + "\"endsIn\":\(endsAt.map { jsonNumber($0 - now, places: 3) } ?? "null")}"
    }
}
