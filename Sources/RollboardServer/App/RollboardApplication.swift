import Foundation
import Logging
public import RollboardNet

/// Rollboard's answer to every request on its port: the producer API, the pages, `/metrics`, and dashboard WebSockets.
public final class RollboardApplication: ServerHandler {
    private let configuration: RollboardConfiguration
    private let api: ProducerAPI
    private let directory: DashboardDirectory
    private let metrics: ServerMetrics
    private let files: StaticFileResponder
    private let publicDirectory: String

    /// - Parameter publicDirectory: the folder of the page's static files (`public/`).
    public init(
        configuration: RollboardConfiguration,
        api: ProducerAPI,
        directory: DashboardDirectory,
        metrics: ServerMetrics,
        publicDirectory: String
    ) {
        self.configuration = configuration
        self.api = api
        self.directory = directory
        self.metrics = metrics
        self.publicDirectory = publicDirectory
        self.files = StaticFileResponder(root: publicDirectory)
    }

    public func handle(_ request: HTTPRequest, respond: @escaping @Sendable (HTTPResponse) -> Void) {
        let path = request.path
        if ProducerAPI.handles(path: path) {
            let metrics = self.metrics
            let isWrite = !["GET", "HEAD"].contains(request.method)
            api.handle(request) { response in
                if isWrite { metrics.postFinished(status: response.status.code) }
                respond(response)
            }
            return
        }
        if path == "/metrics" {
            guard request.method == "GET" || request.method == "HEAD" else {
                respond(Self.methodNotAllowed)
                return
            }
            respond(HTTPResponse(
                status: .ok, contentType: "text/plain; version=0.0.4; charset=utf-8", text: metrics.prometheusText()))
            return
        }
        if path.hasPrefix("/d/") {
            let id = String(path.dropFirst(3))
            guard configuration.dashboard(id) != nil else {
                respond(.error(.notFound, "unknown_dashboard", detail: "no dashboard \"\(id)\" is configured"))
                return
            }
            var page = request
            page.target = "/dashboard.html"
            respond(files.respond(to: page))
            return
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
        if let problem = originProblem(request) {
            return .refuse(.error(.forbidden, "origin_not_allowed", detail: problem))
        }
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
        let hub = query["dashboard"].flatMap { directory.hub($0) }
        return .accept(
            DashboardSocket(hub: hub, fps: fps, messageLimits: configuration.server.limits.clientMessageLimits))
    }

    /// Why the request's `Origin` may not open a WebSocket, or `nil` when it may.
    ///
    /// Clients without an `Origin` (scripts, not browsers) are allowed; browsers must come from this host,
    /// or from an origin on the allow-list.
    func originProblem(_ request: HTTPRequest) -> String? {
        guard let origin = request.headers["Origin"] else { return nil }
        let allowed = configuration.server.allowedOrigins
        if allowed.contains("*") || allowed.contains(where: { $0.caseInsensitiveCompare(origin) == .orderedSame }) {
            return nil
        }
        guard let host = request.headers["Host"], let originHost = URL(string: origin)?.host else {
            return "origin \(origin) is not allowed"
        }
        let requestHost = host.hasPrefix("[") ? String(host.dropFirst().prefix { $0 != "]" }) : String(host.prefix { $0 != ":" })
        let originHostOnly = originHost.hasPrefix("[") ? String(originHost.dropFirst().dropLast()) : originHost
        if requestHost.caseInsensitiveCompare(originHostOnly) == .orderedSame, hostPort(host).map({ $0 == originPort(origin) }) ?? true {
            return nil
        }
        return "origin \(origin) is not allowed; add it to allowedOrigins in config/server.yaml"
    }

    private func originPort(_ origin: String) -> Int? {
        guard let url = URL(string: origin) else { return nil }
        return url.port ?? (url.scheme == "https" ? 443 : 80)
    }

    private func hostPort(_ host: String) -> Int? {
        let afterBracket = host.hasPrefix("[") ? host.split(separator: "]", maxSplits: 1).last.map(String.init) ?? "" : host
        if let colon = afterBracket.lastIndex(of: ":") {
            return Int(afterBracket[afterBracket.index(after: colon)...])
        }
        return nil
    }

    private static let methodNotAllowed: HTTPResponse = {
        var response = HTTPResponse.error(.methodNotAllowed, "method_not_allowed", detail: "use GET")
        response.headers.add(name: "Allow", value: "GET, HEAD")
        return response
    }()
}
