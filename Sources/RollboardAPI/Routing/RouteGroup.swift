package import RollboardConfig
import RollboardNet
package import RollboardStore

/// Routes that share a part of the path space and the middleware that runs before any of them is matched (an admin
/// token is checked before a wrong path is answered 404, so the admin paths are not probed without one).
struct RouteGroup: Sendable {
    /// Whether a path belongs to this group; the first group that claims it answers it, 404 included.
    let claims: @Sendable (String) -> Bool
    let middleware: [any Middleware]
    let routes: [Route]

    init(claims: @escaping @Sendable (String) -> Bool, middleware: [any Middleware] = [], routes: [Route]) {
        self.claims = claims
        self.middleware = middleware
        self.routes = routes
    }

    /// What answers `method` on the path `segments`: the first route that matches both, with its parameters; else
    /// 405 with every method the path accepts, or 404 when no route has the path.
    func match(method: String, path: String, segments: [String]) throws(APIError) -> (Route, [String: String]) {
        var allowed: [String] = []
        for route in routes {
            guard let parameters = route.pattern.match(segments) else { continue }
            if route.methods.contains(method) { return (route, parameters) }
            for name in route.methods where !allowed.contains(name) { allowed.append(name) }
        }
        if allowed.isEmpty { throw .notFound("not_found", "no such endpoint: \(path)") }
        throw .methodNotAllowed(method, path: path, allow: allowed.joined(separator: ", "))
    }
}
