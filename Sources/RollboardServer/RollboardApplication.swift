public import Dispatch
public import Foundation
public import Logging
public import RollboardAPI
public import RollboardAccess
public import RollboardConfig
public import RollboardCore
public import RollboardHub
public import RollboardMetrics
public import RollboardNet
public import RollboardRedisLog
public import RollboardStore

/// Rollboard's answer to every request on its port: the API (its router), the pages, `/metrics`, and dashboard
/// WebSockets.
public final class RollboardApplication: ServerHandler {
    private let api: RollboardAPI
    private let configurations: ConfigurationStore
    private let directory: DashboardDirectory
    private let metrics: ServerMetrics
    private let files: StaticFileResponder
    /// The page's build, stamped on the dashboard page.
    private let page: StaticPage
    private let publicDirectory: String
    private let origins: OriginPolicy
    private let logger: Logger

    /// - Parameters:
    ///   - publicDirectory: the folder of the page's static files (`public/`).
    ///   - api: the producer and admin APIs.
    ///   - configurations: the configuration in force, of which each page and WebSocket takes one snapshot.
    ///   - isSecure: whether the server speaks TLS, so its own pages have `https` origins.
    ///   - page: the build of the files in `publicDirectory` (``StaticPage``); `nil` hashes them now.
    public init(
        configurations: ConfigurationStore,
        api: RollboardAPI,
        directory: DashboardDirectory,
        metrics: ServerMetrics,
        publicDirectory: String,
        isSecure: Bool = true,
        page: StaticPage? = nil,
        logger: Logger = Logger(label: "rollboard")
    ) {
        self.logger = logger
        self.api = api
        self.configurations = configurations
        let configuration = configurations.configuration
        self.directory = directory
        self.metrics = metrics
        self.publicDirectory = publicDirectory
        self.files = StaticFileResponder(root: publicDirectory)
        self.page = page ?? StaticPage(directory: publicDirectory)
        self.origins = OriginPolicy(
            allowedOrigins: configuration.server.allowedOrigins, isSecure: isSecure, listenHost: configuration.server.host)
    }

    public func handle(_ request: HTTPRequest, respond: @escaping @Sendable (HTTPResponse) -> Void) {
        if api.handles(path: request.path) {
            api.handle(request, respond: respond)
        } else {
            route(request, respond: respond)
        }
    }

    private func route(_ request: HTTPRequest, respond: @escaping @Sendable (HTTPResponse) -> Void) {
        let path = request.path
        if path == "/metrics" {
            guard request.method == "GET" || request.method == "HEAD" else {
                respond(Self.methodNotAllowed)
                return
            }
            respond(HTTPResponse(
                status: .ok, contentType: "text/plain; version=0.0.4; charset=utf-8", text: metrics.prometheusText()))
            return
        }
        if path.hasPrefix("/d/") || path.hasPrefix("/p/") {
            let id = String(path.dropFirst(3))
            let accept = request.headers["Accept"]
            let access = configurations.snapshot.access  // one snapshot of the configuration in force for the whole request
            let configuration = access.configuration
            let credential = access.credential(of: request)
            let decision: AccessDecision
            if path.hasPrefix("/p/") {
                guard let playlist = configuration.playlist(id) else {
                    respond(DashboardRefusal.unknown(id: id).response(accept: accept))
                    return
                }
                decision = access.decide(playlist, credential)
            } else {
                guard let dashboard = configuration.dashboard(id) else {
                    respond(DashboardRefusal.unknown(id: id).response(accept: accept))
                    return
                }
                decision = access.decide(dashboard, credential)
            }
            switch decision {
            case .granted: break
            case .keyRequired: return respond(DashboardRefusal.keyRequired(id: id).response(accept: accept))
            case .keyRefused: return respond(DashboardRefusal.keyRefused(id: id).response(accept: accept))
            }
            var response = page.stamped(
                files.respond(to: page.fileRequest(request)), ifNoneMatch: request.headers["If-None-Match"])
            // The address may carry a viewer key: no Referer for links and assets to leak it. Every file answer already
            // says so (once); a 304 or an error answer may not, so it is set here, never added twice.
            response.headers.replaceOrAdd(name: "Referrer-Policy", value: "no-referrer")
            respond(response)
            return
        }
        if path == "/admin" || path.hasPrefix("/admin/") {
            return respond(console(request))
        }
        if path == "/tv" {
            var page = request
            page.target = "/tv.html"
            return respond(files.respond(to: page))
        }
        if path == "/ws" {
            respond(.error(.upgradeRequired, "upgrade_required", detail: "/ws only speaks WebSocket"))
            return
        }
        respond(files.respond(to: request))
    }

    public func shouldUpgrade(_ request: HTTPRequest) -> WebSocketUpgradeDecision {
        guard request.path == "/ws" else {
            return .refuse(.error(.notFound, "not_found", detail: "WebSockets are served at /ws?dashboard=ID"))
        }
        if let problem = origins.problem(origin: request.headers["Origin"], host: request.headers["Host"]) {
            return .refuse(.error(.forbidden, "origin_not_allowed", detail: problem))
        }
        let viewerAccess = configurations.snapshot.access  // one snapshot of the configuration in force for the whole upgrade
        let configuration = viewerAccess.configuration
        let query = request.query
        var fps: Int?
        if let text = query["fps"] {
            guard let value = Int(text), (1...configuration.server.limits.maxFPS).contains(value) else {
                return .refuse(.error(
                    .badRequest, "invalid_fps",
                    detail: "fps must be a whole number from 1 to \(configuration.server.limits.maxFPS)"))
            }
            fps = value
        }
        let calm: Bool
        switch query["motion"] {
        case nil, "full": calm = false
        case "reduced": calm = true
        case let other?:
            return .refuse(.error(
                .badRequest, "invalid_motion", detail: "motion must be full or reduced, got \(JSONText.quoted(other))"))
        }
        var since: ResumePoint?
        if let text = query["since"] {
            guard let point = ResumePoint(text) else {
                return .refuse(.error(
                    .badRequest, "invalid_since",
                    detail: "since must be EPOCH:SEQ as the server's hello gave them, got \(JSONText.quoted(text))"))
            }
            since = point
        }
        let credential = viewerAccess.credential(of: request)
        var target: DashboardSocket.Target?
        var access = AccessDecision.granted(viewerKey: nil)
        if let id = query["playlist"] {
            if let playlist = configuration.playlist(id), let hub = directory.playlist(id) {
                target = .playlist(hub)
                access = viewerAccess.decide(playlist, credential)
            }
        } else if let id = query["dashboard"], let dashboard = configuration.dashboard(id), let hub = directory.hub(id) {
            target = .dashboard(hub)
            access = viewerAccess.decide(dashboard, credential)
        }
        return .accept(
            DashboardSocket(
                target: target, fps: fps, calm: calm, since: since, protocolVersion: query["protocol"], access: access,
                credential: credential.admitted, viewerKeys: viewerAccess.keys, screens: directory.screens,
                messageLimits: configuration.server.limits.clientMessageLimits, clock: directory.nodeClock,
                logger: logger))
    }

    /// The console's pages (`public/admin/`): the sign-in page for anyone, the rest only with a session (else 303 to
    /// the sign-in page). See docs/console.md.
    private func console(_ request: HTTPRequest) -> HTTPResponse {
        var page = request
        switch request.path {
        case "/admin/sign-in":
            page.target = "/admin/sign-in.html"
            return files.respond(to: page)
        case _ where !api.hasConsoleSession(request):
            return HTTPResponse(
                status: HTTPStatus(code: 303, reason: "See Other"),
                headers: ["Location": "/admin/sign-in", "Cache-Control": "no-store"])
        case "/admin", "/admin/":
            page.target = "/admin/index.html"
        default:
            break
        }
        var response = files.respond(to: page)
        response.headers.replaceOrAdd(name: "Cache-Control", value: "no-store")
        return response
    }

    private static let methodNotAllowed: HTTPResponse = {
        var response = HTTPResponse.error(.methodNotAllowed, "method_not_allowed", detail: "use GET")
        response.headers.add(name: "Allow", value: "GET, HEAD")
        return response
    }()
}
