package import RollboardAccess
package import RollboardConfig
package import RollboardHub
package import RollboardMetrics
import RollboardNet
package import RollboardSources
package import RollboardStore

/// The route table of the producer and admin APIs (see `docs/producer-api.md`): which methods and paths exist, which
/// middleware each passes, and which handler answers it.
enum APIRoutes {
    /// Whether `path` is the producer API's (`/api/…`, `/healthz` or `/readyz`); other paths are for the page and
    /// its assets.
    static func isProducerPath(_ path: String) -> Bool {
        path == "/healthz" || path == "/readyz" || path == "/api" || path.hasPrefix("/api/")
    }

    /// Whether `path` is the admin API's (`/api/v1/admin/…` and `/api/v1/screens`).
    static func isAdminPath(_ path: String) -> Bool {
        path == "/api/v1/admin" || path.hasPrefix("/api/v1/admin/") || path == "/api/v1/screens"
    }

    /// Health, values, wheels, texts, carousels and dashboards. Writes need a producer token (within its rate and
    /// its ids); reads of what a dashboard that is not public shows need a viewer key or a token.
    static func producer(
        store: any ChangeLog, tokens: [ProducerToken], rateLimiting: RateLimiting?, metrics: RequestMetrics
    ) -> RouteGroup {
        let health = HealthHandler(store: store)
        let values = MetricsHandler(store: store)
        let wheels = WheelsHandler(store: store)
        let texts = TextsHandler(store: store)
        let carousels = CarouselsHandler(store: store)
        let leaderboards = LeaderboardsHandler(store: store)
        let dashboards = DashboardsHandler()
        var producer: [any Middleware] = [ProducerAuthentication(tokens: tokens)]
        if let rateLimiting { producer.append(rateLimiting) }
        let authenticated = producer
        func write(_ kind: MetricCatalog.Kind) -> [any Middleware] {
            authenticated + [ValueKindCheck(kind: kind), WritePermission(), BodyLimit()]
        }
        func read(_ kind: MetricCatalog.Kind) -> [any Middleware] {
            [ValueKindCheck(kind: kind), ViewerAuthorization(target: .value)]
        }
        return RouteGroup(
            claims: isProducerPath, middleware: [metrics],
            routes: [
                .read("/healthz") { health.health($0, $1) },
                .read("/readyz") { context, respond throws(APIError) in try health.readiness(context, respond) },
                .read("/api/v1/metrics") { values.list($0, $1) },
                .post("/api/v1/metrics", authenticated + [BodyLimit()]) { context, respond throws(APIError) in
                    try values.postBatch(context, respond)
                },
                .read("/api/v1/metrics/:id", read(.metric)) { values.get($0, $1) },
                .read("/api/v1/metrics/:id/series", read(.metric)) { context, respond throws(APIError) in
                    try values.series(context, respond)
                },
                .post("/api/v1/metrics/:id", write(.metric)) { context, respond throws(APIError) in
                    try values.post(context, respond)
                },
                .read("/api/v1/wheels/:id", read(.wheel)) { wheels.get($0, $1) },
                .post("/api/v1/wheels/:id", write(.wheel)) { context, respond throws(APIError) in
                    try wheels.post(context, respond)
                },
                .post("/api/v1/carousels/:id", write(.carousel)) { context, respond throws(APIError) in
                    try carousels.command(context, respond)
                },
                .post("/api/v1/carousels/:id/slides", write(.carousel)) { context, respond throws(APIError) in
                    try carousels.slides(context, respond)
                },
                .read("/api/v1/texts/:id", read(.text)) { texts.get($0, $1) },
                .post("/api/v1/texts/:id", write(.text)) { context, respond throws(APIError) in
                    try texts.post(context, respond)
                },
                .read("/api/v1/leaderboards/:id", read(.leaderboard)) { leaderboards.get($0, $1) },
                .post("/api/v1/leaderboards/:id", write(.leaderboard)) { context, respond throws(APIError) in
                    try leaderboards.post(context, respond)
                },
                .read("/api/v1/dashboards") { dashboards.list($0, $1) },
                .read("/api/v1/dashboards/:id", [ViewerAuthorization(target: .dashboard)]) { dashboards.get($0, $1) },
            ])
    }

    /// Viewer keys, screens, playlists and reloads; every request, a wrong path's included, needs an admin token.
    static func admin(
        authentication: AdminAuthentication, keys: KeysHandler, screens: ScreensHandler, playlists: PlaylistsHandler,
        reload: ReloadHandler, sources: SourcesHandler
    ) -> RouteGroup {
        let hub = Lookup { context throws(APIError) in try screens.requireHub(context) }
        let screen = Lookup { context throws(APIError) in try screens.requireScreen(context) }
        let playlist = Lookup { context throws(APIError) in try playlists.requirePlaylist(context) }
        return RouteGroup(
            claims: isAdminPath, middleware: [authentication],
            routes: [
                .read("/api/v1/admin/keys") { keys.list($0, $1) },
                .post("/api/v1/admin/keys", [BodyLimit()]) { context, respond throws(APIError) in
                    try keys.create(context, respond)
                },
                .delete("/api/v1/admin/keys/:id") { keys.revoke($0, $1) },
                .read("/api/v1/screens") { screens.list($0, $1) },
                .post("/api/v1/admin/dashboards/:id/reload", [hub]) { screens.reloadDashboard($0, $1) },
                .post("/api/v1/admin/dashboards/:id/announce", [hub, BodyLimit()]) {
                    context, respond throws(APIError) in try screens.announceOnDashboard(context, respond)
                },
                .post("/api/v1/admin/announce", [BodyLimit()]) { context, respond throws(APIError) in
                    try screens.announceEverywhere(context, respond)
                },
                .post("/api/v1/admin/reload") { context, respond throws(APIError) in
                    try reload.reload(context, respond)
                },
                .read("/api/v1/admin/playlists") { playlists.list($0, $1) },
                .read("/api/v1/admin/sources") { sources.list($0, $1) },
                .post("/api/v1/admin/playlists/:id/hold") { context, respond throws(APIError) in
                    try playlists.hold(context, respond)
                },
                .post("/api/v1/admin/playlists/:id/resume") { context, respond throws(APIError) in
                    try playlists.resume(context, respond)
                },
                .post("/api/v1/admin/playlists/:id/show", [playlist, BodyLimit()]) {
                    context, respond throws(APIError) in try playlists.show(context, respond)
                },
                .post("/api/v1/admin/playlists/:id/announce", [playlist, BodyLimit()]) {
                    context, respond throws(APIError) in try playlists.announce(context, respond)
                },
                .post("/api/v1/admin/playlists/:id/reload") { context, respond throws(APIError) in
                    try playlists.reload(context, respond)
                },
                .post("/api/v1/admin/playlists/:id/:command", [playlist]) { context, respond throws(APIError) in
                    try playlists.unknownCommand(context, respond)
                },
                .post("/api/v1/admin/screens/:id/identify", [screen, BodyLimit(allowsEmpty: true)]) {
                    context, respond throws(APIError) in try screens.identify(context, respond)
                },
            ])
    }
}
