import RollboardNet
package import RollboardStore

/// One row of the route table: the methods and path it answers, the middleware its requests pass, and its handler.
struct Route: Sendable {
    let methods: [String]
    let pattern: RoutePattern
    let middleware: [any Middleware]
    let handler: Handler

    init(_ methods: [String], _ pattern: String, _ middleware: [any Middleware] = [], _ handler: @escaping Handler) {
        self.methods = methods
        self.pattern = RoutePattern(pattern)
        self.middleware = middleware
        self.handler = handler
    }

    /// `GET` and `HEAD` (a `HEAD` is answered like a `GET`, without the body).
    static func read(_ pattern: String, _ middleware: [any Middleware] = [], _ handler: @escaping Handler) -> Route {
        Route(["GET", "HEAD"], pattern, middleware, handler)
    }

    static func post(_ pattern: String, _ middleware: [any Middleware] = [], _ handler: @escaping Handler) -> Route {
        Route(["POST"], pattern, middleware, handler)
    }

    static func delete(_ pattern: String, _ middleware: [any Middleware] = [], _ handler: @escaping Handler) -> Route {
        Route(["DELETE"], pattern, middleware, handler)
    }
}
