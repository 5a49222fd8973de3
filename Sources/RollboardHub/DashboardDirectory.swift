public import Dispatch
public import Logging
public import RollboardAccess
public import RollboardConfig
public import RollboardCore
public import RollboardMetrics
public import RollboardNet
public import RollboardStore
import Synchronization

/// Every configured dashboard's hub and playlist's clock, fed the changes the change log commits (values, targets,
/// texts, slides, carousel and playlist commands; a change goes only to the hubs that show its metric) and told when
/// its feed stalls; a reload (``reconfigure(_:)``) changes them without dropping screens.
public final class DashboardDirectory: Sendable {
    /// What a reload changed, by id.
    public struct ReloadReport: Sendable, Equatable {
        public var added: [String] = []
        /// Their screens got a fresh `hello`.
        public var changed: [String] = []
        /// Their screens were closed with 4404.
        public var removed: [String] = []
        public var addedPlaylists: [String] = []
        public var changedPlaylists: [String] = []
        public var removedPlaylists: [String] = []

        package init(added: [String] = [], changed: [String] = [], removed: [String] = [], addedPlaylists: [String] = [], changedPlaylists: [String] = [], removedPlaylists: [String] = []) {
            self.added = added
            self.changed = changed
            self.removed = removed
            self.addedPlaylists = addedPlaylists
            self.changedPlaylists = changedPlaylists
            self.removedPlaylists = removedPlaylists
        }
    }

    private struct State {
        var configuration: RollboardConfiguration
        var hubs: [String: DashboardHub] = [:]
        var playlists: [String: PlaylistHub] = [:]
        /// Which dashboards show each metric (set with `hubs`): a change goes only to the hubs that show it.
        var routes = MetricRoutes([])
        /// Whether the hubs were built before the change log had loaded anything (Redis opens in the background):
        /// when its feed first turns live, every tile is built again from what it loaded — a window's tally, a
        /// chart's points and a trend read the metric's series only when they are built.
        var rebuildWhenLive = false
    }

    private let state: Mutex<State>
    private let store: any ChangeLog
    private let metrics: ServerMetrics
    private let logger: Logger
    private let clock: FrameClock
    /// Seconds since 1970, for the playlists and for what is left of an announcement a node applies late.
    private let wall: FrameClock
    /// The page this node serves, told in every hub's hello (``PageBuild``).
    private let page: PageBuild?
    /// The node's clock, as the directory was given it.
    package var nodeClock: NodeClock { NodeClock(monotonic: clock, wall: wall) }
    /// The store's position up to which the hubs were handed every change they show (they read it as screens connect).
    private let routed: ChangeWatermark
    /// A source's health turned (a committed `sourceHealth` change, from whichever node polls it): the tiles of its
    /// `metrics` show it stale with the reason, or no longer.
    func sourceHealthChanged(metrics: [String], reason: String?) {
        for hub in hubs(showingAnyOf: metrics) { hub.setSourceProblem(metrics: metrics, reason: reason) }
    }

    /// The screens connected to any of the hubs.
    package let screens = ScreenRegistry()

    /// Builds one hub per dashboard, each tile at rest on the store's current value, and gives each the changes `store`
    /// commits to the metrics its tiles show.
    public convenience init(
        configuration: RollboardConfiguration,
        store: any ChangeLog,
        metrics: ServerMetrics,
        logger: Logger
    ) throws {
        try self.init(
            configuration: configuration, store: store, metrics: metrics, logger: logger,
            clock: NodeClock.system.monotonic)
    }

    package init(
        configuration: RollboardConfiguration,
        store: any ChangeLog,
        metrics: ServerMetrics,
        logger: Logger,
        clock: FrameClock,
        wall: FrameClock = NodeClock.system.wall,
        page: PageBuild? = nil
    ) throws {
        self.page = page
        self.store = store
        self.metrics = metrics
        self.logger = logger
        self.clock = clock
        self.wall = wall
        self.routed = ChangeWatermark(store.lastSeq)
        self.state = Mutex(State(configuration: configuration, rebuildWhenLive: !store.isFeedLive))
        var hubs: [String: DashboardHub] = [:]
        for dashboard in configuration.dashboards {
            hubs[dashboard.id] = try makeHub(dashboard, configuration)
        }
        let playlists = Dictionary(
            uniqueKeysWithValues: configuration.playlists.map { ($0.id, makePlaylist($0)) })
        state.withLock { state in
            state.hubs = hubs
            state.routes = MetricRoutes(configuration.dashboards)
            state.playlists = playlists
        }
        store.subscribe { [weak self] change in
            guard let self else { return }
            switch change {
            case .metrics(let updates):
                for update in updates {
                    let stored = MetricSeries.Point(
                        seq: update.seq, time: update.updatedAt, value: update.value, increment: update.increment)
                    let change = TileChange.value(
                        update.value, interval: update.interval, animated: update.animated, policy: update.policy,
                        stored: stored)
                    for hub in self.hubs(showing: update.id) {
                        hub.apply(change, toMetric: update.id, committedAt: update.updatedAt, seq: update.seq)
                    }
                    routed.passed(update.seq)
                }
            case .wheel(let wheel):
                let change: TileChange =
                    switch wheel.target {
                    case .progress(let progress): .wheelProgress(progress)
                    case .index(let index): .wheelIndex(index)
                    }
                for hub in self.hubs(showing: wheel.id) {
                    hub.apply(change, toMetric: wheel.id, committedAt: wheel.updatedAt, seq: wheel.seq)
                }
                routed.passed(wheel.seq)
            case .text(let text):
                for hub in self.hubs(showing: text.id) {
                    hub.apply(.text(text.text, color: text.color), toMetric: text.id, seq: text.seq)
                }
                routed.passed(text.seq)
            case .slides(let slides):
                for hub in self.hubs(showing: slides.id) {
                    hub.apply(.slides(slides.slides), toMetric: slides.id, seq: slides.seq)
                }
                routed.passed(slides.seq)
            case .carousel(let command):
                let change: TileChange =
                    switch command.action {
                    case .next: .carousel(.next, page: nil)
                    case .previous: .carousel(.prev, page: nil)
                    case .goto(let page): .carousel(.goto, page: page)
                    }
                for hub in self.hubs(showing: command.id) {
                    hub.apply(change, toMetric: command.id, seq: command.seq)
                }
                routed.passed(command.seq)
            case .playlist(let command):
                state.withLock { $0.playlists[command.id] }?.apply(command)
            case .screens(let command):
                apply(command)
            case .viewerKey:
                break  // ViewerKeys follows these itself
            case .sourceHealth(let health):
                sourceHealthChanged(metrics: health.metrics, reason: health.reason)
            case .leaderboard(let board):
                for hub in self.hubs(showing: board.id) {
                    hub.apply(.leaderboard(board.entries), toMetric: board.id, committedAt: board.updatedAt, seq: board.seq)
                }
                routed.passed(board.seq)
            }
        }
        store.observeFeed { [weak self] live in
            guard let self else { return }
            let epoch = store.epoch
            for hub in state.withLock({ Array($0.hubs.values) }) { hub.setFeed(live: live, epoch: epoch) }
            let rebuild = live && state.withLock { state in
                defer { state.rebuildWhenLive = false }
                return state.rebuildWhenLive
            }
            if rebuild { rebuildTiles() }
        }
    }

    /// Builds every hub's tiles again from the change log as it stands (their screens get a fresh `hello`).
    private func rebuildTiles() {
        let (configuration, hubs) = state.withLock { ($0.configuration, $0.hubs) }
        for dashboard in configuration.dashboards {
            guard let hub = hubs[dashboard.id] else { continue }
            do {
                let made = try hubParts(dashboard, configuration)
                hub.reconfigure(
                    helloDashboard: made.hello, tiles: made.tiles, tilesByMetric: made.tilesByMetric,
                    updatedAt: made.updatedAt, configuration: made.configuration)
            } catch {
                logger.error(
                    "a dashboard's tiles could not be built from the loaded change log; they keep what they show",
                    metadata: ["dashboard": "\(dashboard.id)", "error": "\(error)"])
            }
        }
    }

    /// Passes an operator's command on to this node's screens; an announcement shows for what is left of its seconds
    /// (none, once they ran out while this node caught up).
    private func apply(_ command: StoredScreenCommand) {
        switch command.action {
        case .announce(let dashboard, let text, _):
            guard let seconds = command.secondsLeft(at: wall.now()) else { return }
            hub(dashboard)?.announce(text, seconds: seconds)
        case .announceEverywhere(let text, _):
            guard let seconds = command.secondsLeft(at: wall.now()) else { return }
            for hub in state.withLock({ Array($0.hubs.values) }) { hub.announce(text, seconds: seconds) }
        case .announcePlaylist(let playlist, let text, _):
            guard let seconds = command.secondsLeft(at: wall.now()) else { return }
            self.playlist(playlist)?.announce(text, seconds: seconds)
        case .reloadDashboard(let dashboard):
            hub(dashboard)?.reload()
        case .reloadPlaylist(let playlist):
            self.playlist(playlist)?.reload()
        case .assign(let name, let page):
            for screen in screens.all where screen.name == name {
                screen.hub.send(ScreenMessageEncoder.assign(url: page), toSession: screen.sessionID)
            }
        case .reloadScreen(let name):
            for screen in screens.all where screen.name == name {
                screen.hub.send(ScreenMessageEncoder.reload, toSession: screen.sessionID)
            }
        case .identify(let name, _):
            guard let seconds = command.secondsLeft(at: wall.now()) else { return }
            for screen in screens.all where screen.name == name {
                screen.hub.identify(screen.sessionID, name: name, seconds: seconds)
            }
        }
    }

    /// A hub for `dashboard`, its tiles at rest on the store's current values.
    private func makeHub(_ dashboard: DashboardConfiguration, _ configuration: RollboardConfiguration) throws
        -> DashboardHub
    {
        let parts = try hubParts(dashboard, configuration)
        let hub = DashboardHub(
            dashboardID: dashboard.id, helloDashboard: parts.hello, tiles: parts.tiles,
            tilesByMetric: parts.tilesByMetric, updatedAt: parts.updatedAt, configuration: parts.configuration,
            epoch: store.epoch, storeSeq: store.lastSeq, routed: routed, clock: clock, wall: wall, metrics: metrics,
            logger: logger)
        // A dashboard added while the feed is stale (a reload during a Redis outage) says so to its screens too.
        if !store.isFeedLive { hub.setFeed(live: false) }
        return hub
    }

    private func hubParts(_ dashboard: DashboardConfiguration, _ configuration: RollboardConfiguration) throws -> (
        hello: String, tiles: [any LiveTile], tilesByMetric: [String: [String]], updatedAt: [String: Double],
        configuration: DashboardHub.Configuration
    ) {
        let now = clock.now()
        let wallNow = wall.now()  // read back to back: building the tiles (a clock's formats) can take a while
        let factory = LiveTileFactory(configuration: configuration, store: store, logger: logger, wallOffset: wallNow - now)
        let limits = configuration.server.limits
        let snapshot = store.snapshot
        return (
            configuration.json(dashboard).serialized,
            try dashboard.tiles.map { try factory.makeTile($0, of: dashboard, at: now) },
            Dictionary(grouping: dashboard.tiles, by: \.metric).mapValues { $0.map(\.id) },
            Dictionary(
                uniqueKeysWithValues: dashboard.tiles.compactMap { tile in
                    snapshot.valueUpdatedAt(tile.metric).map { (tile.id, $0) }
                }),
            DashboardHub.Configuration(
                defaultFPS: limits.defaultFPS, maxFPS: limits.maxFPS, slowClientTimeout: limits.slowClientTimeout,
                calm: dashboard.motion == .reduced, page: page)
        )
    }

    /// A playlist's hub, brought in step with the operator commands the change log keeps for it (a hold made before
    /// this node started is still a hold).
    private func makePlaylist(_ playlist: PlaylistConfiguration) -> PlaylistHub {
        let hub = PlaylistHub(
            configuration: playlist, hubs: { [weak self] id in self?.hub(id) }, registry: screens, clock: wall)
        for command in store.snapshot.playlistCommands(playlist.id) { hub.apply(command) }
        return hub
    }

    /// The hub of dashboard `id`, if it is configured.
    package func hub(_ id: String) -> DashboardHub? {
        state.withLock { $0.hubs[id] }
    }

    /// The hubs of the dashboards whose tiles show `metric`: the only ones a change to it is given to.
    func hubs(showing metric: String) -> [DashboardHub] {
        state.withLock { state in state.routes.dashboards(showing: metric).compactMap { state.hubs[$0] } }
    }

    /// The hubs of the dashboards whose tiles show any of `metrics`.
    func hubs(showingAnyOf metrics: [String]) -> [DashboardHub] {
        state.withLock { state in state.routes.dashboards(showingAnyOf: metrics).compactMap { state.hubs[$0] } }
    }

    /// The hub of playlist `id`, if it is configured.
    package func playlist(_ id: String) -> PlaylistHub? {
        state.withLock { $0.playlists[id] }
    }

    /// Takes a reloaded configuration: new dashboards and playlists start, changed ones send their screens a fresh
    /// `hello` (a dashboard whose server-side settings changed counts as changed), removed ones close their screens
    /// with 4404. Screens of unchanged dashboards notice nothing.
    public func reconfigure(_ configuration: RollboardConfiguration) throws -> ReloadReport {
        let old = state.withLock { $0 }
        var report = ReloadReport()
        var hubs: [String: DashboardHub] = [:]
        var changed: [(DashboardHub, DashboardConfiguration)] = []
        for dashboard in configuration.dashboards {
            guard let hub = old.hubs[dashboard.id] else {
                hubs[dashboard.id] = try makeHub(dashboard, configuration)
                report.added.append(dashboard.id)
                continue
            }
            hubs[dashboard.id] = hub
            let before = old.configuration.dashboard(dashboard.id)
            let beforeHello = before.map { old.configuration.json($0).serialized }
            if before != dashboard || beforeHello != configuration.json(dashboard).serialized
                || old.configuration.server.limits != configuration.server.limits
            {
                changed.append((hub, dashboard))
                report.changed.append(dashboard.id)
            }
        }
        var parts: [(DashboardHub, String, [any LiveTile], [String: [String]], [String: Double], DashboardHub.Configuration)] = []
        for (hub, dashboard) in changed {
            let made = try hubParts(dashboard, configuration)
            parts.append((hub, made.hello, made.tiles, made.tilesByMetric, made.updatedAt, made.configuration))
        }
        var playlists: [String: PlaylistHub] = [:]
        for playlist in configuration.playlists {
            if let hub = old.playlists[playlist.id] {
                playlists[playlist.id] = hub
                if old.configuration.playlist(playlist.id) != playlist {
                    report.changedPlaylists.append(playlist.id)
                }
            } else {
                playlists[playlist.id] = makePlaylist(playlist)
                report.addedPlaylists.append(playlist.id)
            }
        }
        report.removed = old.hubs.keys.filter { hubs[$0] == nil }.sorted()
        report.removedPlaylists = old.playlists.keys.filter { playlists[$0] == nil }.sorted()
        state.withLock { state in
            state.configuration = configuration
            state.hubs = hubs
            state.routes = MetricRoutes(configuration.dashboards)
            state.playlists = playlists
        }
        for (hub, hello, tiles, tilesByMetric, updatedAt, hubConfiguration) in parts {
            hub.reconfigure(
                helloDashboard: hello, tiles: tiles, tilesByMetric: tilesByMetric, updatedAt: updatedAt,
                configuration: hubConfiguration)
        }
        for id in report.changedPlaylists {
            if let playlist = configuration.playlist(id) { playlists[id]?.reconfigure(playlist) }
        }
        for id in report.removedPlaylists { old.playlists[id]?.closeAll(code: .unknownDashboard, reason: "playlist removed") }
        for id in report.removed { old.hubs[id]?.closeAll(code: .unknownDashboard, reason: "dashboard removed") }
        return report
    }

    /// Closes every screen of every dashboard with 1001; `completion` is called once the hubs have done so (`true`)
    /// or, if one has not, after `timeout` seconds on the directory's clock (`false`), whichever comes first. Nothing
    /// waits meanwhile.
    public func closeAll(
        timeout: Double = ServerSettings.Defaults.screenCloseTimeout,
        completion: @escaping @Sendable (_ allClosed: Bool) -> Void
    ) {
        let queue = DispatchQueue(label: "rollboard.close-screens")
        let answered = Mutex(false)
        let timer = clock.makeTimer(queue)
        let answer: @Sendable (Bool) -> Void = { allClosed in
            let first = answered.withLock { done in
                defer { done = true }
                return !done
            }
            guard first else { return }
            timer.cancel()
            completion(allClosed)
        }
        timer.activate { answer(false) }
        timer.arm(at: clock.now() + timeout)
        let group = DispatchGroup()
        for hub in state.withLock({ Array($0.hubs.values) }) { hub.closeAll(group) }
        group.notify(queue: queue) { answer(true) }
    }
}
