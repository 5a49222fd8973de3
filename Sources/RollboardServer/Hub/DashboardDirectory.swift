import Dispatch
public import Logging

/// Every configured dashboard's hub, fed by the store's committed changes and the producers' carousel commands.
public final class DashboardDirectory: Sendable {
    private let hubs: [String: DashboardHub]
    private let playlists: [String: PlaylistHub]
    /// The screens connected to any of the hubs.
    let screens = ScreenRegistry()

    /// Builds one hub per dashboard, each tile at rest on the store's current value, and subscribes them
    /// to `store` and `api`.
    public convenience init(
        configuration: RollboardConfiguration,
        store: MetricStore,
        api: ProducerAPI,
        metrics: ServerMetrics,
        logger: Logger
    ) throws {
        try self.init(
            configuration: configuration, store: store, api: api, metrics: metrics, logger: logger, clock: .monotonic())
    }

    init(
        configuration: RollboardConfiguration,
        store: MetricStore,
        api: ProducerAPI,
        metrics: ServerMetrics,
        logger: Logger,
        clock: FrameClock
    ) throws {
        let factory = LiveTileFactory(configuration: configuration, store: store, logger: logger)
        let limits = configuration.server.limits
        let now = clock.now()
        var hubs: [String: DashboardHub] = [:]
        for dashboard in configuration.dashboards {
            hubs[dashboard.id] = DashboardHub(
                dashboardID: dashboard.id,
                helloDashboard: configuration.json(dashboard).serialized,
                tiles: try dashboard.tiles.map { try factory.makeTile($0, at: now) },
                tilesByMetric: Dictionary(grouping: dashboard.tiles, by: \.metric).mapValues { $0.map(\.id) },
                updatedAt: Dictionary(uniqueKeysWithValues: dashboard.tiles.compactMap { tile in
                    (store.current(tile.metric)?.updatedAt ?? store.wheel(tile.metric)?.updatedAt).map { (tile.id, $0) }
                }),
                configuration: .init(
                    defaultFPS: limits.defaultFPS, maxFPS: limits.maxFPS, slowClientTimeout: limits.slowClientTimeout,
                    calm: dashboard.motion == .reduced),
                clock: clock,
                metrics: metrics,
                logger: logger
            )
        }
        self.hubs = hubs
        let screens = self.screens
        self.playlists = Dictionary(
            uniqueKeysWithValues: configuration.playlists.map {
                ($0.id, PlaylistHub(configuration: $0, hubs: hubs, registry: screens))
            })
        let allHubs = Array(hubs.values)
        store.subscribe { change in
            switch change {
            case .metrics(let updates):
                for update in updates {
                    let change = TileChange.value(
                        update.value, interval: update.interval, animated: update.animated, policy: update.policy)
                    for hub in allHubs { hub.apply(change, toMetric: update.id, committedAt: update.updatedAt) }
                }
            case .wheel(let wheel):
                let change: TileChange =
                    switch wheel.target {
                    case .progress(let progress): .wheelProgress(progress)
                    case .index(let index): .wheelIndex(index)
                    }
                for hub in allHubs { hub.apply(change, toMetric: wheel.id, committedAt: wheel.updatedAt) }
            case .text(let text):
                for hub in allHubs { hub.apply(.text(text.text, color: text.color), toMetric: text.id) }
            case .slides(let slides):
                for hub in allHubs { hub.apply(.slides(slides.slides), toMetric: slides.id) }
            }
        }
        api.onCarouselCommand { command in
            let change: TileChange =
                switch command.action {
                case .next: .carousel(.next, page: nil)
                case .previous: .carousel(.prev, page: nil)
                case .goto(let page): .carousel(.goto, page: page)
                }
            for hub in allHubs { hub.apply(change, toMetric: command.id) }
        }
    }

    /// The hub of dashboard `id`, if it is configured.
    func hub(_ id: String) -> DashboardHub? {
        hubs[id]
    }

    /// The hub of playlist `id`, if it is configured.
    func playlist(_ id: String) -> PlaylistHub? {
        playlists[id]
    }

    /// Closes every screen of every dashboard with 1001 and waits up to `timeout` for the hubs to have done so;
    /// returns whether they all did. Blocks the caller: call it from the main queue or a signal handler, never from
    /// a connection or a hub.
    @discardableResult
    public func closeAll(timeout: Duration = .seconds(5)) -> Bool {
        let group = DispatchGroup()
        for hub in hubs.values { hub.closeAll(group) }
        return group.wait(timeout: .now() + .nanoseconds(Int(timeout.components.seconds) * 1_000_000_000
            + Int(timeout.components.attoseconds / 1_000_000_000))) == .success
    }
}
