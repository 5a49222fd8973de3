public import Dispatch
public import Logging
public import RollboardAccess
public import RollboardConfig
public import RollboardCore
public import RollboardHub
public import RollboardMetrics
public import RollboardNet
public import RollboardRedisLog
public import RollboardSources
public import RollboardStore

/// The producer API (`/api/v1/…`, `/healthz`, `/readyz`) and, with admin tokens, the admin API
/// (`/api/v1/admin/…`, `/api/v1/screens`), answered by one ``Router`` from the table in ``APIRoutes``.
/// See `docs/producer-api.md`.
///
/// Writes need `Authorization: Bearer TOKEN`. Reads of a dashboard that is not public, and of the values it shows,
/// need a viewer key that opens it or a producer or admin token (``ViewerAccess``). Admin requests need an admin
/// token. Every refusal is a JSON `{"error":…,"detail":…}` with the fitting status; nothing is half-applied. A
/// change is answered `202` only once the store has made it durable. Every answer carries an `X-Request-Id`.
public final class RollboardAPI: Sendable {
    /// What the admin API works on.
    public struct Admin: Sendable {
        /// The admin tokens in force (see ``AdminTokens/resolve(configured:environment:dataDirectory:)``).
        public var tokens: [String]
        public var keys: ViewerKeys
        /// The dashboards' hubs and their screens (`nil`: no screens to list or control).
        public var directory: DashboardDirectory?
        /// Reloads the configuration from its folder (`nil`: `POST /api/v1/admin/reload` answers 404).
        public var reloader: ConfigurationReloader?
        /// The wall clock, in seconds since 1970 (a key's `createdAt`); `nil`: the system's.
        public var now: (@Sendable () -> Double)?
        /// The scheduled sources `GET /api/v1/admin/sources` lists (`nil`: none).
        public var sources: SourceScheduler?
        /// Whether the server speaks TLS: the console's session cookie is then `Secure`.
        public var isSecure: Bool
        /// This node's name, as `GET /api/v1/screens` shows where each screen is connected (`RollboardNode`: its host
        /// name and port).
        public var node: String

        public init(
            tokens: [String], keys: ViewerKeys, directory: DashboardDirectory? = nil,
            reloader: ConfigurationReloader? = nil, now: (@Sendable () -> Double)? = nil,
            sources: SourceScheduler? = nil, isSecure: Bool = true, node: String = "localhost"
        ) {
            self.tokens = tokens
            self.keys = keys
            self.directory = directory
            self.reloader = reloader
            self.now = now
            self.sources = sources
            self.isSecure = isSecure
            self.node = node
        }
    }

    public let router: Router
    private let metrics: RequestMetrics
    /// The console's sessions (`nil`: no admin tokens, no console).
    private let sessions: SessionsHandler?
    /// With Redis, publishes this node's screen list for `GET /api/v1/screens?cluster` on the other nodes.
    private let publisher: ScreenListPublisher?
    private let clock: NodeClock

    /// - Parameters:
    ///   - configurations: the configuration in force, one snapshot of which each request is served under.
    ///   - tokens: the producer tokens in force (see `ProducerTokens.resolve`).
    ///   - admin: what the admin API works on; `nil` (or no tokens) leaves its paths answering 404.
    ///   - metrics: counts the answers to writes for `GET /metrics` (`nil`: not counted there).
    ///   - monotonicSeconds: the clock of the rate limiter (default: the system's monotonic clock).
    public convenience init(
        configurations: ConfigurationStore, tokens: [ProducerToken], store: any ChangeLog, logger: Logger,
        admin: Admin? = nil, metrics: ServerMetrics? = nil, monotonicSeconds: (@Sendable () -> Double)? = nil
    ) {
        var clock = NodeClock.system
        if let monotonicSeconds {
            clock.monotonic = FrameClock(now: monotonicSeconds, makeTimer: clock.monotonic.makeTimer)
        }
        if let now = admin?.now { clock.wall = FrameClock(now: now, makeTimer: clock.wall.makeTimer) }
        self.init(
            configurations: configurations, tokens: tokens, store: store, logger: logger, admin: admin, metrics: metrics,
            clock: clock)
    }

    /// As the public initializer, on the node's clock: its monotonic time for rate limits and commit deadlines, its
    /// wall time for keys' `createdAt`, series queries and webhooks' signed timestamps. `environment` reads a
    /// webhook's secret (`nil`: the process's environment).
    package init(
        configurations: ConfigurationStore, tokens: [ProducerToken], store: any ChangeLog, logger: Logger,
        admin: Admin? = nil, metrics: ServerMetrics? = nil, clock: NodeClock,
        environment: (@Sendable (String) -> String?)? = nil
    ) {
        let requestMetrics = RequestMetrics(metrics: metrics)
        let rate = configurations.configuration.server.limits.producerRequestsPerSecond
        let producer = APIRoutes.producer(
            store: store, tokens: tokens,
            rateLimiting: rate > 0 ? RateLimiting(rate: rate, now: clock.monotonic.now) : nil, metrics: requestMetrics)
        var groups: [RouteGroup] = []
        var sessions: SessionsHandler?
        var publisher: ScreenListPublisher?
        if let admin, !admin.tokens.isEmpty {
            let consoleSessions = SessionsHandler(tokens: admin.tokens, isSecure: admin.isSecure, logger: logger)
            sessions = consoleSessions
            groups.append(APIRoutes.console(sessions: consoleSessions, metrics: requestMetrics))
            var screens = ScreensHandler(store: store, node: admin.node, directory: admin.directory, logger: logger)
            if let link = store as? RedisChangeLog, admin.directory != nil {
                let lists = RedisScreenLists(link: link)
                let id = admin.node + "#" + ((try? SecureRandom.hex(4)) ?? "0")
                screens.cluster = (lists, id)
                publisher = ScreenListPublisher(
                    id: id, lists: lists, clock: clock.monotonic, items: { [screens] in screens.items($0) })
            }
            let pairings = PairingsHandler(
                keys: admin.keys, shared: RedisPairings(store, node: admin.node), logger: logger,
                wallNow: admin.now ?? clock.wall.now)
            groups.append(
                APIRoutes.tv(
                    pairings: pairings, resume: ResumeHandler(keys: admin.keys, store: store), metrics: requestMetrics))
            groups.append(
                APIRoutes.admin(
                    authentication: AdminAuthentication(
                        tokens: admin.tokens, producerTokens: tokens, sessions: consoleSessions),
                    keys: KeysHandler(
                        keys: admin.keys, logger: logger, now: admin.now ?? clock.wall.now,
                        isShared: store is RedisChangeLog),
                    screens: screens,
                    playlists: PlaylistsHandler(
                        store: store, directory: admin.directory, screens: screens, logger: logger),
                    reload: ReloadHandler(reloader: admin.reloader),
                    sources: SourcesHandler(scheduler: admin.sources), pairings: pairings,
                    assign: AssignHandler(store: store, directory: admin.directory, keys: admin.keys, logger: logger),
                    sessions: consoleSessions,
                    dashboards: AdminDashboardsHandler(store: store, directory: admin.directory)))
        }
        groups.append(producer)
        groups.append(
            APIRoutes.webhooks(
                WebhooksHandler(
                    store: store, metrics: metrics, logger: logger,
                    environment: environment ?? WebhooksHandler.processEnvironment)))
        self.metrics = requestMetrics
        self.sessions = sessions
        self.publisher = publisher
        self.clock = clock
        self.router = Router(
            configurations: configurations, middleware: [RequestIdentification(ids: RequestIDs(), logger: logger)],
            groups: groups, logger: logger, clock: clock)
    }

    /// Whether `path` is the API's; other paths are for the page and its assets.
    public func handles(path: String) -> Bool {
        router.handles(path: path)
    }

    /// Answers `request`; `respond` is called exactly once, on any queue.
    public func handle(_ request: HTTPRequest, respond: @escaping @Sendable (HTTPResponse) -> Void) {
        router.handle(request, respond: respond)
    }

    /// Whether `request` carries the cookie of a live console session (the console's pages, `/admin/…`, need one).
    public func hasConsoleSession(_ request: HTTPRequest) -> Bool {
        sessions?.hasSession(request, clock: clock) ?? false
    }

    /// Stops publishing this node's screen list to Redis (nothing to stop without Redis); `completion` is called then.
    package func stopPublishingScreens(completion: @escaping @Sendable () -> Void) {
        guard let publisher else { return completion() }
        publisher.stop(completion: completion)
    }

    /// Counters of the producer API's answers.
    public var statistics: ProducerAPIStatistics {
        metrics.statistics
    }
}
