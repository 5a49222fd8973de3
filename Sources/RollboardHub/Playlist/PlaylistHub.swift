package import Dispatch
package import RollboardAccess
package import RollboardConfig
package import RollboardCore
package import RollboardMetrics
package import RollboardNet
package import RollboardStore
import Synchronization

/// The live side of one playlist: drives a ``PlaylistStateMachine`` on its own serial queue with one timer on an
/// injected clock (the wall clock: every node agrees on it), and carries out its actions through the dashboards'
/// hubs — a screen's playlist message, its hello and its frames all come from the hub it joins — and the list of
/// screens.
package final class PlaylistHub: @unchecked Sendable {  // Sendable: every mutable property is touched only on `queue`.
    /// What the driver keeps of one screen: where its messages go and what it asked for.
    private struct Screen {
        let sink: any FrameSink
        let fps: Int?
        let calm: Bool
        let listing: (name: String?, address: String?, userAgent: String?, keyID: String?, connectedAt: Double)
        var listedID: Int?
        /// The hub it joined last.
        var hub: DashboardHub?
    }

    private let configurationBox: Mutex<PlaylistConfiguration>
    private let hubs: @Sendable (String) -> DashboardHub?
    private let registry: ScreenRegistry
    private let clock: FrameClock
    private let queue: DispatchQueue
    private let timer: any ClockTimer
    private let nextScreenID = Atomic<Int>(1)
    // Confined to `queue`.
    private var machine: PlaylistStateMachine
    private var screens: [Int: Screen] = [:]
    private var waiters: [Int: @Sendable (Bool) -> Void] = [:]
    private var nextWaiter = 1

    /// - Parameters:
    ///   - hubs: the hub of a dashboard, by id; every entry's dashboard has one.
    ///   - clock: seconds since 1970.
    init(
        configuration: PlaylistConfiguration, hubs: @escaping @Sendable (String) -> DashboardHub?,
        registry: ScreenRegistry, clock: FrameClock = NodeClock.system.wall
    ) {
        self.configurationBox = Mutex(configuration)
        self.hubs = hubs
        self.registry = registry
        self.clock = clock
        self.machine = PlaylistStateMachine(configuration: configuration, now: clock.now())
        self.queue = DispatchQueue(label: "rollboard.playlist.\(configuration.id)")
        self.timer = clock.makeTimer(queue)
        timer.activate { [weak self] in self?.timerFired() }
        queue.async { [self] in perform(machine.start(now: clock.now())) }
    }

    deinit {
        timer.cancel()
    }

    /// The playlist's entries and title, as last configured.
    package var configuration: PlaylistConfiguration {
        configurationBox.withLock { $0 }
    }

    /// Takes a changed configuration (a reload): the rotation starts again from the shared epoch, and every screen
    /// is moved to the entry showing now.
    func reconfigure(_ configuration: PlaylistConfiguration) {
        queue.async { [self] in
            configurationBox.withLock { $0 = configuration }
            perform(machine.reconfigure(configuration, now: clock.now()))
        }
    }

    /// Closes every screen with `code` (a playlist that a reload removed: 4404).
    func closeAll(code: WebSocketCloseCode, reason: String) {
        queue.async { [self] in perform(machine.closeAll(code: code, reason: reason)) }
    }

    // MARK: Screens

    /// Adds a screen that follows the playlist (only final states when `calm`); returns its id. `keyID` is the viewer
    /// key it connected with, as the list of screens shows it.
    package func connect(
        _ sink: any FrameSink, fps: Int?, calm: Bool, name: String?, address: String?, userAgent: String?,
        keyID: String? = nil
    ) -> Int {
        let id = nextScreenID.wrappingAdd(1, ordering: .relaxed).oldValue
        let listing = (name: name, address: address, userAgent: userAgent, keyID: keyID, connectedAt: clock.now())
        queue.async { [self] in
            screens[id] = Screen(sink: sink, fps: fps, calm: calm, listing: listing)
            perform(machine.connect(id, now: clock.now()))
        }
        return id
    }

    /// Removes a screen that went away.
    package func disconnect(_ id: Int) {
        queue.async { [self] in perform(machine.disconnect(id)) }
    }

    /// Hands a screen's message to the dashboard it shows now; `done` runs once that hub has dealt with it.
    package func receive(text: String, from id: Int, done: @escaping @Sendable () -> Void) {
        queue.async { [self] in
            guard let hub = screens[id]?.hub, let session = machine.session(of: id) else { return done() }
            hub.receive(text: text, from: session, done: done)
        }
    }

    // MARK: Remote control

    /// What the playlist shows: `(entry, held, screens)`, passed to `body` on the playlist's queue.
    package func status(_ body: @escaping @Sendable (_ entry: Int, _ held: Bool, _ screens: Int) -> Void) {
        queue.async { [self] in body(machine.current, machine.isHeld, machine.screenCount) }
    }

    /// Applies an operator's committed command (``PlaylistStateMachine/apply(_:now:)``).
    func apply(_ command: StoredPlaylistCommand) {
        queue.async { [self] in perform(machine.apply(command, now: clock.now())) }
    }

    /// Calls `body` on the playlist's queue once the command numbered `seq` (or a later one) has been applied, with
    /// `true`, or after `timeout` seconds with `false`.
    package func whenApplied(_ seq: UInt64, timeout: Double = 2, _ body: @escaping @Sendable (Bool) -> Void) {
        queue.async { [self] in
            let waiter = nextWaiter
            nextWaiter += 1
            waiters[waiter] = body
            perform(machine.waitApplied(seq, waiter: waiter, timeout: timeout, now: clock.now()))
        }
    }

    /// Every screen of the playlist shows `text` for `seconds`, whichever dashboard it shows meanwhile.
    func announce(_ text: String, seconds: Double) {
        queue.async { [self] in perform(machine.announce(text, seconds: seconds, now: clock.now())) }
    }

    /// Every screen of the playlist reloads its page.
    func reload() {
        queue.async { [self] in perform(machine.reload()) }
    }

    // MARK: Driving the machine

    private func timerFired() {
        dispatchPrecondition(condition: .onQueue(queue))
        perform(machine.tick(now: clock.now()))
    }

    private func perform(_ actions: [PlaylistAction]) {
        dispatchPrecondition(condition: .onQueue(queue))
        for action in actions {
            switch action {
            case .leave(let id, let session, let generation):
                let rejoin: @Sendable () -> Void = { [self] in
                    queue.async { [self] in perform(machine.left(id, generation: generation, now: clock.now())) }
                }
                if let hub = screens[id]?.hub { hub.disconnect(session, then: rejoin) } else { rejoin() }
            case .join(let id, let dashboard, let greeting):
                join(id, dashboard: dashboard, greeting: greeting)
            case .send(let text, let id, let session):
                screens[id]?.hub?.send(text, toSession: session)
            case .forget(let id, let session):
                forget(id, session: session)
            case .close(let id, let session, let code, let reason):
                forget(id, session: session)?.sink.close(code: code, reason: reason)
            case .answer(let waiter, let applied):
                waiters.removeValue(forKey: waiter)?(applied)
            case .wake(let time):
                timer.arm(at: time)
            }
        }
    }

    /// Joins screen `id` to `dashboard`'s hub, which greets it first, and lists it there.
    private func join(_ id: Int, dashboard: String, greeting: String) {
        guard var screen = screens[id], let hub = hubs(dashboard) else { return }
        let session = hub.connect(screen.sink, fps: screen.fps, calm: screen.calm, greeting: greeting)
        screen.hub = hub
        if let listed = screen.listedID {
            registry.move(listed, to: dashboard, hub: hub, sessionID: session)
        } else {
            screen.listedID = registry.add(
                dashboard: dashboard, playlist: machine.configuration.id, name: screen.listing.name,
                address: screen.listing.address, userAgent: screen.listing.userAgent, keyID: screen.listing.keyID,
                connectedAt: screen.listing.connectedAt, hub: hub, sessionID: session)
        }
        screens[id] = screen
        machine.joined(id, session: session)
        perform(machine.afterJoining(id, now: clock.now()))
    }

    /// Takes screen `id` off its hub and the list of screens; returns what was kept of it.
    @discardableResult
    private func forget(_ id: Int, session: Int?) -> Screen? {
        guard let screen = screens.removeValue(forKey: id) else { return nil }
        if let hub = screen.hub, let session { hub.disconnect(session) }
        if let listed = screen.listedID { registry.remove(listed) }
        return screen
    }
}
