package import RollboardAccess
package import RollboardConfig
package import RollboardCore
package import RollboardHub
package import RollboardMetrics
import RollboardNet
package import RollboardSources
package import RollboardStore

/// The admin scope: the request must carry `Authorization: Bearer <admin token>`, or the console's session cookie
/// (its writes with the session's `X-CSRF-Token`, see ``SessionsHandler``); none or an unknown one is 401, a producer
/// token 403, a write with the cookie but without its CSRF token 403 `csrf_token`.
struct AdminAuthentication: Middleware {
    private let tokens: [[UInt8]]
    private let producerTokens: [[UInt8]]
    private let sessions: SessionsHandler?

    init(tokens: [String], producerTokens: [ProducerToken], sessions: SessionsHandler? = nil) {
        self.tokens = tokens.map { Array($0.utf8) }
        self.producerTokens = producerTokens.map { Array($0.token.utf8) }
        self.sessions = sessions
    }

    func handle(
        _ context: RequestContext, respond: @escaping Respond, next: (RequestContext, @escaping Respond) -> Void
    ) throws(APIError) {
        guard let token = context.request.bearerToken else {
            guard let sessions, context.request.cookie(ConsoleSessions.Defaults.cookieName) != nil else {
                throw .missingAdminToken
            }
            _ = try sessions.authenticate(context)
            return next(context, respond)
        }
        let presented = Array(token.utf8)
        var isAdmin = false
        var isProducer = false
        for token in tokens where ConstantTime.equals(token, presented) { isAdmin = true }
        for token in producerTokens where ConstantTime.equals(token, presented) { isProducer = true }
        if isProducer && !isAdmin {
            let action = Self.action(method: context.request.method, path: context.request.path)
            throw .forbidden("a producer token cannot \(action); use an admin token")
        }
        guard isAdmin else { throw .invalidAdminToken }
        next(context, respond)
    }

    /// What a request to an admin route does, as the 403 to a producer token says it: "list sources", "revoke
    /// viewer keys"; "use the admin API" for a request no admin route answers.
    static func action(method: String, path: String) -> String {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        let verb = method == "HEAD" ? "GET" : method
        for (routeMethod, pattern, action) in actions where routeMethod == verb {
            let parts = pattern.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
            if parts.count == segments.count, zip(parts, segments).allSatisfy({ $0 == "*" || $0 == $1 }) {
                return action
            }
        }
        return "use the admin API"
    }

    /// Each admin route (as in ``APIRoutes/admin``, `*` for a path parameter) and what it does; the first match wins.
    static let actions: [(method: String, pattern: String, action: String)] = [
        ("GET", "/api/v1/admin/keys", "list viewer keys"),
        ("POST", "/api/v1/admin/keys", "create viewer keys"),
        ("DELETE", "/api/v1/admin/keys/*", "revoke viewer keys"),
        ("GET", "/api/v1/screens", "list screens"),
        ("GET", "/api/v1/admin/dashboards", "list dashboards"),
        ("POST", "/api/v1/admin/dashboards/*/reload", "reload a dashboard's screens"),
        ("POST", "/api/v1/admin/dashboards/*/announce", "announce on a dashboard"),
        ("POST", "/api/v1/admin/announce", "announce on every screen"),
        ("POST", "/api/v1/admin/reload", "reload the configuration"),
        ("GET", "/api/v1/admin/playlists", "list playlists"),
        ("GET", "/api/v1/admin/sources", "list sources"),
        ("POST", "/api/v1/admin/playlists/*/hold", "hold playlists"),
        ("POST", "/api/v1/admin/playlists/*/resume", "resume playlists"),
        ("POST", "/api/v1/admin/playlists/*/show", "choose what a playlist shows"),
        ("POST", "/api/v1/admin/playlists/*/announce", "announce on a playlist"),
        ("POST", "/api/v1/admin/playlists/*/reload", "reload playlists"),
        ("POST", "/api/v1/admin/playlists/*/*", "control playlists"),
        ("POST", "/api/v1/admin/screens/*/identify", "identify screens"),
        ("POST", "/api/v1/admin/screens/*/reload", "reload a screen"),
        ("POST", "/api/v1/admin/screens/*/assign", "assign screens"),
        ("POST", "/api/v1/admin/pairings", "pair TVs"),
        ("GET", "/api/v1/admin/sessions", "list console sessions"),
        ("DELETE", "/api/v1/admin/sessions/*", "revoke console sessions"),
    ]
}
