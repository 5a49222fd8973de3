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
                .read("/healthz", [], health.health),
                .read("/readyz", [], health.readiness),
                .read("/api/v1/metrics", [], values.list),
                .post("/api/v1/metrics", authenticated + [BodyLimit()], values.postBatch),
                .read("/api/v1/metrics/:id", read(.metric), values.get),
                .read("/api/v1/metrics/:id/series", read(.metric), values.series),
                .post("/api/v1/metrics/:id", write(.metric), values.post),
                .read("/api/v1/wheels/:id", read(.wheel), wheels.get),
                .post("/api/v1/wheels/:id", write(.wheel), wheels.post),
                .post("/api/v1/carousels/:id", write(.carousel), carousels.command),
                .post("/api/v1/carousels/:id/slides", write(.carousel), carousels.slides),
                .read("/api/v1/texts/:id", read(.text), texts.get),
                .post("/api/v1/texts/:id", write(.text), texts.post),
                .read("/api/v1/leaderboards/:id", read(.leaderboard), leaderboards.get),
                .post("/api/v1/leaderboards/:id", write(.leaderboard), leaderboards.post),
                .read("/api/v1/dashboards", [], dashboards.list),
                .read("/api/v1/dashboards/:id", [ViewerAuthorization(target: .dashboard)], dashboards.get),
            ])
    }

    /// Whether `path` is the TV pairing API's (`/api/v1/tv/…`).
    static func isTVPath(_ path: String) -> Bool {
        path == "/api/v1/tv" || path.hasPrefix("/api/v1/tv/")
    }

    /// A TV asks for a pairing code and polls for its pairing, without a credential, and a paired TV asks where its
    /// key points now (see `docs/pairing.md`).
    static func tv(pairings: PairingsHandler, resume: ResumeHandler, metrics: RequestMetrics) -> RouteGroup {
        RouteGroup(
            claims: isTVPath, middleware: [metrics],
            routes: [
                .post("/api/v1/tv/pairings", [BodyLimit(allowsEmpty: true)], pairings.issue),
                .read("/api/v1/tv/pairings/:token", [], pairings.poll),
                .post("/api/v1/tv/resume", [BodyLimit()], resume.resume),
            ])
    }

    /// `POST /hooks/{id}`: webhooks, which authenticate by their signature (no token), outside the producer API.
    static func webhooks(_ handler: WebhooksHandler) -> RouteGroup {
        RouteGroup(
            claims: { $0.hasPrefix(WebhookConfiguration.pathPrefix) },
            routes: [.post(WebhookConfiguration.pathPrefix + ":id", [], handler.deliver)])
    }

    /// Viewer keys, screens, playlists and reloads; every request, a wrong path's included, needs an admin token.
    static func admin(
        authentication: AdminAuthentication, keys: KeysHandler, screens: ScreensHandler, playlists: PlaylistsHandler,
        reload: ReloadHandler, sources: SourcesHandler, pairings: PairingsHandler, assign: AssignHandler,
        sessions: SessionsHandler, dashboards: AdminDashboardsHandler
    ) -> RouteGroup {
        let hub = Lookup { context throws(APIError) in try screens.requireHub(context) }
        let playlist = Lookup { context throws(APIError) in try playlists.requirePlaylist(context) }
        return RouteGroup(
            claims: isAdminPath, middleware: [authentication],
            routes: [
                .read("/api/v1/admin/keys", [], keys.list),
                .post("/api/v1/admin/keys", [BodyLimit()], keys.create),
                .delete("/api/v1/admin/keys/:id", [], keys.revoke),
                .post("/api/v1/admin/pairings", [BodyLimit()], pairings.pair),
                .read("/api/v1/screens", [], screens.list),
                .read("/api/v1/admin/dashboards", [], dashboards.list),
                .post("/api/v1/admin/dashboards/:id/reload", [hub], screens.reloadDashboard),
                .post("/api/v1/admin/dashboards/:id/announce", [hub, BodyLimit()], screens.announceOnDashboard),
                .post("/api/v1/admin/announce", [BodyLimit()], screens.announceEverywhere),
                .post("/api/v1/admin/reload", [], reload.reload),
                .read("/api/v1/admin/playlists", [], playlists.list),
                .read("/api/v1/admin/sources", [], sources.list),
                .post("/api/v1/admin/playlists/:id/hold", [], playlists.hold),
                .post("/api/v1/admin/playlists/:id/resume", [], playlists.resume),
                .post("/api/v1/admin/playlists/:id/show", [playlist, BodyLimit()], playlists.show),
                .post("/api/v1/admin/playlists/:id/announce", [playlist, BodyLimit()], playlists.announce),
                .post("/api/v1/admin/playlists/:id/reload", [], playlists.reload),
                .post("/api/v1/admin/playlists/:id/:command", [playlist], playlists.unknownCommand),
                .post("/api/v1/admin/screens/:id/identify", [BodyLimit(allowsEmpty: true)], screens.identify),
                .post("/api/v1/admin/screens/:id/reload", [], screens.reloadScreen),
                .post("/api/v1/admin/screens/:id/assign", [BodyLimit()], assign.assign),
                .read("/api/v1/admin/sessions", [], sessions.list),
                .delete("/api/v1/admin/sessions/:id", [], sessions.revoke),
            ])
    }

    /// `/admin/session`: the console signs in with an admin token (no session needed), reads its session and CSRF
    /// token, and signs out (see `docs/console.md`).
    static func console(sessions: SessionsHandler, metrics: RequestMetrics) -> RouteGroup {
        RouteGroup(
            claims: { $0 == "/admin/session" }, middleware: [metrics],
            routes: [
                .post("/admin/session", [], sessions.signIn),
                .read("/admin/session", [], sessions.current),
                .delete("/admin/session", [], sessions.signOut),
            ])
    }
}
