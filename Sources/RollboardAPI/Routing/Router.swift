import Dispatch
import Logging
package import RollboardConfig
package import RollboardCore
package import RollboardHub
public import RollboardNet
package import RollboardRedisLog
package import RollboardStore

/// The API's one router: a table of routes in groups, the middleware around them, and one configuration snapshot per
/// request. A refusal thrown anywhere on the way becomes its JSON `{"error":…,"detail":…}` response, delivered
/// through every middleware the request passed (so request ids and counters see it too).
public final class Router: Sendable {
    private let middleware: [any Middleware]
    private let groups: [RouteGroup]
    private let configurations: ConfigurationStore
    private let logger: Logger
    private let clock: NodeClock

    /// - Parameters:
    ///   - middleware: what every request of every group passes first (request ids).
    ///   - groups: the route groups, asked in order which one claims a path.
    ///   - clock: the node's clock, which every request's context carries.
    init(
        configurations: ConfigurationStore, middleware: [any Middleware], groups: [RouteGroup], logger: Logger,
        clock: NodeClock = .system
    ) {
        self.configurations = configurations
        self.clock = clock
        self.middleware = middleware
        self.groups = groups
        self.logger = logger
    }

    /// Whether some group answers `path`; other paths are for the page and its assets.
    public func handles(path: String) -> Bool {
        groups.contains { $0.claims(path) }
    }

    /// Answers `request`, whose path one of the groups claims; `respond` is called exactly once, on any queue.
    public func handle(_ request: HTTPRequest, respond: @escaping @Sendable (HTTPResponse) -> Void) {
        let path = request.path
        guard let group = groups.first(where: { $0.claims(path) }) else {
            return respond(APIError.notFound("not_found", "no such endpoint: \(path)").response)
        }
        let context = RequestContext(request: request, snapshot: configurations.snapshot, clock: clock)
        let dispatch: Handler = { [self] context, respond throws(APIError) in
            let (route, parameters) = try group.match(
                method: request.method, path: path, segments: RoutePattern.split(path))
            var context = context
            context.parameters = parameters
            run(route.middleware[...], route.handler, context, respond)
        }
        run((middleware + group.middleware)[...], dispatch, context, respond)
    }

    /// Passes `context` through `steps` and then `handler`; a refusal thrown by any of them answers `respond`.
    private func run(
        _ steps: ArraySlice<any Middleware>, _ handler: @escaping Handler, _ context: RequestContext,
        _ respond: @escaping Respond
    ) {
        do throws(APIError) {
            if let step = steps.first {
                try step.handle(context, respond: respond) { context, respond in
                    run(steps.dropFirst(), handler, context, respond)
                }
            } else {
                try handler(context, respond)
            }
        } catch {
            // A 503 says the store or Redis is unavailable, which the store logs once; probes would flood the log.
            if error.status.code >= 500 && error.status.code != 503 {
                logger.error(
                    "API request failed", metadata: ["path": "\(context.request.path)", "detail": "\(error.detail)"])
            }
            respond(error.response)
        }
    }
}
