public import Logging
public import RollboardAPI
public import RollboardAccess
public import RollboardConfig
public import RollboardCore
public import RollboardHub
public import RollboardMetrics
public import RollboardNet
public import RollboardRedisLog
public import RollboardSources
public import RollboardStore

/// One Rollboard node, wired in one place for `rollboard serve`, the tests' live server and the benchmarks: the change
/// log (the embedded journal, or Redis when the settings name one), the producer and admin APIs, the dashboard hubs,
/// the metrics and the HTTPS / WebSocket server.
public final class RollboardNode: Sendable {
    /// What a node is built from.
    public struct Options: Sendable {
        /// The configuration in force, command-line overrides applied.
        public var configuration: RollboardConfiguration
        /// The settings as `server.yaml` gave them, for reloads; `nil` uses `configuration.server`.
        public var fileSettings: ServerSettings?
        /// The configuration folder that `POST /api/v1/admin/reload` and SIGHUP read again; `nil`: no reloads.
        public var configDirectory: String?
        /// The folder of the page's static files.
        public var publicDirectory: String
        /// The certificate and key; `nil` speaks plain HTTP (behind a TLS-terminating proxy).
        public var tls: TLSConfiguration?
        public var producerTokens: [ProducerToken]
        /// Admin tokens; none leaves `/api/v1/admin/…` answering 404.
        public var adminTokens: [String]
        /// Connections the kernel queues before they are accepted; `nil` keeps the transport's default.
        public var listenBacklog: Int?
        /// Seconds within which a screen running an older page than this node serves reloads (``PageBuild``).
        public var pageReloadSpread = ServerSettings.Defaults.pageReloadSpread
        /// Seconds a stopping node gives its hubs to close every screen with 1001.
        public var screenCloseTimeout = ServerSettings.Defaults.screenCloseTimeout
        /// The one clock every service of the node runs by (its monotonic and wall time): the system's, or a test's
        /// manual clock.
        var clock = NodeClock.system
        /// How a source is fetched (blocking): over the network, or a test's script.
        var fetch: @Sendable (SourceConfiguration) -> Result<SourceValues, SourceFailure> = {
            SourceFetch.perform($0)
        }

        public init(
            configuration: RollboardConfiguration,
            fileSettings: ServerSettings? = nil,
            configDirectory: String? = nil,
            publicDirectory: String = "public",
            tls: TLSConfiguration?,
            producerTokens: [ProducerToken],
            adminTokens: [String] = []
        ) {
            self.configuration = configuration
            self.fileSettings = fileSettings
            self.configDirectory = configDirectory
            self.publicDirectory = publicDirectory
            self.tls = tls
            self.producerTokens = producerTokens
            self.adminTokens = adminTokens
        }
    }

    public let changeLog: any ChangeLog
    /// The configuration in force; a reload swaps it.
    public let configurations: ConfigurationStore
    public let api: RollboardAPI
    public let directory: DashboardDirectory
    public let metrics: ServerMetrics
    public let server: Server
    /// Reloads `config/`; `nil` without a configuration folder.
    public let reloader: ConfigurationReloader?
    /// The scheduled sources (`config/sources/`), polled from `start()` on.
    public let sources: SourceScheduler
    /// The sources' leases in Redis (`nil` without Redis: this node polls every source).
    let leases: SourceLeases?
    /// Starts the services in order and stops them in the reverse order.
    private let lifecycle: ServiceLifecycle

    /// Opens the change log and builds everything on top of it; `start()` opens the port.
    public init(_ options: Options, logger: Logger) throws {
        let settings = options.configuration.server
        let changeLog: any ChangeLog
        if let redis = settings.redis {
            changeLog = try RedisChangeLog(
                settings: redis, historyLimit: settings.historyLength,
                seriesLimits: SeriesLimits(retention: settings.seriesRetention),
                idempotencyBudget: settings.idempotencyMemoryBytes, logger: logger, clock: options.clock.wall.now,
                linkClock: options.clock.monotonic)
        } else {
            changeLog = try MetricStore(
                directory: settings.storeDirectory, historyLimit: settings.historyLength,
                seriesLimits: SeriesLimits(retention: settings.seriesRetention),
                compactionThreshold: settings.journalCompactionBytes,
                idempotencyBudget: settings.idempotencyMemoryBytes, logger: logger, clock: options.clock.wall.now,
                upkeepClock: options.clock.monotonic)
        }
        do {
            let metrics = ServerMetrics()
            metrics.recordCommits(of: changeLog)
            if let redis = changeLog as? RedisChangeLog {
                metrics.readRedis { redis.statistics }
            }
            let viewerKeys = ViewerKeys(changeLog: changeLog, logger: logger)
            viewerKeys.importLegacyFile(settings.legacyViewerKeysPath)
            let configurations = ConfigurationStore(
                options.configuration, viewerKeys: viewerKeys,
                readerTokens: options.producerTokens.map(\.token) + options.adminTokens, logger: logger)
            // A key revoked on any node: this node's screens that came in with it close (1008).
            viewerKeys.onRevocation { [weak configurations, weak viewerKeys] _ in
                guard let configurations, let viewerKeys else { return 0 }
                return viewerKeys.screens.recheck(configurations.snapshot.access)
            }
            let page = StaticPage(directory: options.publicDirectory)
            let directory = try DashboardDirectory(
                configuration: options.configuration, store: changeLog, metrics: metrics, logger: logger,
                clock: options.clock.monotonic, wall: options.clock.wall,
                page: page.build.map { PageBuild(id: $0, reloadSpread: options.pageReloadSpread) })
            let sources = SourceScheduler(
                changeLog: changeLog, clock: options.clock, fetch: options.fetch,
                catalog: { configurations.configuration.catalog },
                leaderboardLimit: { configurations.configuration.server.limits.maxLeaderboardEntries },
                leased: settings.redis != nil,
                // Through the change log, so that the screens of every node show it.
                onHealth: { source, health in
                    // Its leaderboards' tiles turn stale with its metrics' (a board's tile shows the board id).
                    let change = StoredSourceHealth(
                        id: source.id, metrics: source.metricIDs + source.leaderboardIDs, reason: health.reason)
                    changeLog.commit(.sourceHealth(change)) { result in
                        if case .failure(let error) = result {
                            logger.warning(
                                "a source's health could not be shared", metadata: ["source": "\(source.id)", "error": "\(error)"])
                        }
                    }
                },
                logger: logger)
            metrics.readSources { sources.statuses }
            changeLog.subscribe { [weak sources] change in
                if case .sourceHealth(let health) = change { sources?.noteShared(health) }
            }
            // With Redis, one node of the cluster polls each source: the one holding its lease, asked for on the change
            // log's one Redis link (no connection of its own).
            let link = changeLog as? RedisChangeLog
            let leases = try settings.redis.flatMap { redis in
                try link.map { link in
                    SourceLeases(
                        link: link, keyPrefix: redis.keyPrefix, node: try SecureRandom.hex(8),
                        clock: options.clock.monotonic, logger: logger
                    ) { [weak sources] id, polled in sources?.setPolled(id, polled) }
                }
            }
            let reloader = options.configDirectory.map { folder in
                ConfigurationReloader(
                    directory: folder, fileSettings: options.fileSettings ?? settings, configurations: configurations,
                    dashboards: directory,
                    applySources: { reloaded in
                        sources.apply(reloaded)
                        leases?.configure(reloaded)
                    },
                    logger: logger)
            }
            let api = RollboardAPI(
                configurations: configurations, tokens: options.producerTokens, store: changeLog, logger: logger,
                admin: RollboardAPI.Admin(
                    tokens: options.adminTokens, keys: viewerKeys, directory: directory, reloader: reloader,
                    sources: sources, isSecure: options.tls != nil,
                    node: Self.nodeName(port: settings.port)),
                metrics: metrics, clock: options.clock)
            let application = RollboardApplication(
                configurations: configurations, api: api, directory: directory, metrics: metrics,
                publicDirectory: options.publicDirectory, isSecure: options.tls != nil, page: page, logger: logger)
            var transport = settings.transportConfiguration(
                tls: options.tls, webhooks: options.configuration.webhooks)
            if let backlog = options.listenBacklog { transport.backlog = backlog }
            let server = Server(configuration: transport, logger: logger, handler: application)
            self.server = server
            self.changeLog = changeLog
            self.configurations = configurations
            self.api = api
            self.directory = directory
            self.metrics = metrics
            self.reloader = reloader
            self.sources = sources
            self.leases = leases
            let screenCloseTimeout = options.screenCloseTimeout
            // In the order they start; they stop in the reverse order.
            var services: [ServiceLifecycle.Service] = [
                // Open since it was built (or opening, for Redis): closes once the changes in flight are durable.
                .init("change log") { done in changeLog.close(completion: done) },
                .init("dashboards") { done in directory.closeAll(timeout: screenCloseTimeout) { _ in done() } },
                // With Redis, this node's screen list published for the other nodes (`GET /api/v1/screens?cluster`).
                .init("screen list") { done in api.stopPublishingScreens(completion: done) },
                .init(
                    "server",
                    start: {
                        try server.start()
                        metrics.countConnections { server.connectionCount }
                    },
                    stop: { done in server.shutdown(completion: done) }),
                .init("sources", start: { sources.apply(configurations.configuration.sources) }) { done in
                    sources.stopAll()
                    done()
                },
            ]
            if let leases {
                services.append(
                    .init("source leases", start: { leases.configure(configurations.configuration.sources) }) { done in
                        leases.stop(completion: done)
                    })
            }
            self.lifecycle = ServiceLifecycle(services, logger: logger)
            // Everything that follows the log has subscribed: it may open now (Redis: in the background).
            changeLog.start()
        } catch {
            changeLog.close {}
            throw error
        }
    }

    /// This node's name, as the list of screens says where each is connected: the machine's host name, and the
    /// configured port unless one is picked at start (`0`).
    static func nodeName(port: Int) -> String {
        let host = OriginPolicy.machineNames.first ?? "localhost"
        return port == 0 ? host : "\(host):\(port)"
    }

    /// Starts the services in order: opens the port (every dashboard is served from then on), then polls the sources.
    public func start() throws {
        try lifecycle.start()
    }

    /// The port the node listens on (the real one when the settings said 0).
    public var port: Int { server.localPort }

    /// Stops the services in the reverse order, each once the one before has stopped: the sources, then accepting
    /// (connections finish), then every screen is closed with 1001 (within `screenCloseTimeout`), then the change log
    /// once the changes in flight are durable. `completion` is called, on any queue, once all that is done; nothing
    /// waits meanwhile.
    public func stop(completion: @escaping @Sendable () -> Void) {
        lifecycle.stop(completion: completion)
    }
}
