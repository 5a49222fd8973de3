import Foundation
import Logging
import RollboardClient
import RollboardNet
import Synchronization
import Testing

@testable import RollboardCore
@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardMetrics
@testable import RollboardRedisLog
@testable import RollboardAccess
@testable import RollboardHub
@testable import RollboardSources
@testable import RollboardAPI
@testable import RollboardServer

private typealias F = RoutingFixture

@Suite("Router middleware")
struct MiddlewareTests {
    @Test(
        "producer authentication: a known token passes and is kept; none or another is 401",
        arguments: [
            (F.producerToken as String?, nil as Int?, "writes need"),
            (F.restrictedToken, nil, ""),
            (nil, 401, "writes need an Authorization: Bearer <token> header"),
            (F.adminToken, 401, ""),
            ("not-a-token", 401, ""),
        ])
    func producerAuthentication(bearer: String?, status: Int?, detail: String) throws {
        let outcome = run(
            ProducerAuthentication(tokens: F.tokens), try F.context(F.request("POST", bearer: bearer)))
        #expect(outcome.passed?.producerToken?.token == (status == nil ? bearer : nil))
        #expect(outcome.status == status ?? 200)
        if status != nil { #expect(outcome.response?.errorCode == "unauthorized") }
        if !detail.isEmpty && status != nil { #expect(outcome.response?.detail == detail) }
    }

    @Test(
        "admin authentication: an admin token passes; none or an unknown one is 401, a producer token 403",
        arguments: [
            (F.adminToken as String?, 200, nil as String?, nil as String?),
            (nil, 401, "admin requests need an Authorization: Bearer <admin token> header",
             #"Bearer realm="rollboard-admin""#),
            ("not-a-token", 401, "the bearer token is not an admin token",
             #"Bearer realm="rollboard-admin", error="invalid_token""#),
            (F.producerToken, 403, "a producer token cannot use the admin API; use an admin token", nil),
        ])
    func adminAuthentication(bearer: String?, status: Int, detail: String?, challenge: String?) throws {
        let middleware = AdminAuthentication(tokens: [F.adminToken], producerTokens: F.tokens)
        let outcome = run(middleware, try F.context(F.request(bearer: bearer)))
        #expect(outcome.status == status)
        #expect((outcome.passed != nil) == (status == 200))
        #expect(outcome.response?.detail == detail)
        #expect(outcome.response?.headers["WWW-Authenticate"] == challenge)
    }

    @Test(
        "a producer token's 403 on each admin route says what that route does, not another route's action",
        arguments: [
            ("GET", "/api/v1/admin/keys", "list viewer keys"),
            ("POST", "/api/v1/admin/keys", "create viewer keys"),
            ("DELETE", "/api/v1/admin/keys/k1", "revoke viewer keys"),
            ("GET", "/api/v1/screens", "list screens"),
            ("POST", "/api/v1/admin/dashboards/ops/reload", "reload a dashboard's screens"),
            ("POST", "/api/v1/admin/dashboards/ops/announce", "announce on a dashboard"),
            ("POST", "/api/v1/admin/announce", "announce on every screen"),
            ("POST", "/api/v1/admin/reload", "reload the configuration"),
            ("GET", "/api/v1/admin/playlists", "list playlists"),
            ("GET", "/api/v1/admin/sources", "list sources"),
            ("HEAD", "/api/v1/admin/sources", "list sources"),
            ("POST", "/api/v1/admin/playlists/lobby/hold", "hold playlists"),
            ("POST", "/api/v1/admin/playlists/lobby/resume", "resume playlists"),
            ("POST", "/api/v1/admin/playlists/lobby/show", "choose what a playlist shows"),
            ("POST", "/api/v1/admin/playlists/lobby/announce", "announce on a playlist"),
            ("POST", "/api/v1/admin/playlists/lobby/reload", "reload playlists"),
            ("POST", "/api/v1/admin/playlists/lobby/dance", "control playlists"),
            ("POST", "/api/v1/admin/screens/s1/identify", "identify screens"),
            ("POST", "/api/v1/admin/screens/Hall/reload", "reload a screen"),
            ("POST", "/api/v1/admin/screens/Hall/assign", "assign screens"),
            ("POST", "/api/v1/admin/pairings", "pair TVs"),
            ("GET", "/api/v1/admin/dashboards", "list dashboards"),
            ("GET", "/api/v1/admin/nothing-here", "use the admin API"),
            ("DELETE", "/api/v1/admin/sources", "use the admin API"),
        ])
    func producerForbiddenNamesTheAction(method: String, path: String, action: String) throws {
        let middleware = AdminAuthentication(tokens: [F.adminToken], producerTokens: F.tokens)
        let outcome = run(middleware, try F.context(F.request(method, path, bearer: F.producerToken)))
        #expect(outcome.status == 403)
        #expect(outcome.response?.detail == "a producer token cannot \(action); use an admin token")
    }

    @Test(
        "viewer authorization: a public dashboard's value is open, a keyed one needs a key or token",
        arguments: [
            (ViewerAuthorization.Target.value, "visitors", nil as String?, 200, nil as String?),
            (.value, "revenue", nil, 401, "viewer_key_required"),
            (.value, "revenue", F.producerToken, 200, nil),
            (.value, "revenue", F.adminToken, 200, nil),
            (.value, "revenue", "not-a-key", 403, "invalid_viewer_key"),
            (.dashboard, "lobby", nil, 200, nil),
            (.dashboard, "finance", nil, 401, "viewer_key_required"),
            (.dashboard, "finance", F.adminToken, 200, nil),
            (.dashboard, "finance", "not-a-key", 403, "invalid_viewer_key"),
            (.dashboard, "nope", F.adminToken, 404, "unknown_dashboard"),
        ])
    func viewerAuthorization(
        target: ViewerAuthorization.Target, id: String, bearer: String?, status: Int, error: String?
    ) throws {
        let context = try F.context(F.request(bearer: bearer), parameters: ["id": id])
        let outcome = run(ViewerAuthorization(target: target), context)
        #expect(outcome.status == status)
        #expect(outcome.response?.errorCode == error)
    }

    @Test(
        "rate limiting: a token has a burst of twice its rate, then waits, on the injected clock",
        arguments: [
            // (seconds of each request, the status of each)
            ([0, 0, 0], [200, 200, 429]),
            ([0, 0, 0.5, 1], [200, 200, 429, 200]),
            ([0, 0, 2, 2, 2], [200, 200, 200, 200, 429]),
        ] as [([Double], [Int])])
    func rateLimiting(times: [Double], statuses: [Int]) throws {
        let clock = Mutex(0.0)
        let limiting = RateLimiting(rate: 1, now: { clock.withLock { $0 } })
        let context = try F.context(F.request("POST"), token: F.tokens[0])
        var seen: [Int] = []
        for time in times {
            clock.withLock { $0 = time }
            seen.append(run(limiting, context).status ?? 0)
        }
        #expect(seen == statuses)
        clock.withLock { $0 = 0 }
        let other = try F.context(F.request("POST"), token: F.tokens[1])
        #expect(run(limiting, other).status == 200, "each token has its own bucket")
    }

    @Test("a request over the rate limit says when to try again")
    func retryAfter() throws {
        let limiting = RateLimiting(rate: 0.5, now: { 10 })
        let context = try F.context(F.request("POST"), token: F.tokens[0])
        _ = run(limiting, context)
        let refused = run(limiting, context)
        #expect(refused.status == 429)
        #expect(refused.response?.headers["Retry-After"] == "2")
    }

    @Test(
        "the value kind: the route's id must be of its kind, else 404 naming the route of the kind it is",
        arguments: [
            (MetricCatalog.Kind.metric, "visitors", 200, nil as String?),
            (.metric, "nope", 404, #"unknown metric "nope" (no tile shows it)"#),
            (.metric, "notice", 404, #""notice" is a text; use /api/v1/texts/notice"#),
            (.wheel, "status", 200, nil),
            (.wheel, "visitors", 404, #""visitors" is a metric; use /api/v1/metrics/visitors"#),
            (.text, "news", 404, #""news" is a carousel; use /api/v1/carousels/news"#),
            (.carousel, "news", 200, nil),
        ])
    func valueKind(kind: MetricCatalog.Kind, id: String, status: Int, detail: String?) throws {
        let outcome = run(ValueKindCheck(kind: kind), try F.context(F.request(), parameters: ["id": id]))
        #expect(outcome.status == status)
        #expect(outcome.response?.detail == detail)
    }

    @Test(
        "write permission: a restricted token writes only its ids",
        arguments: [(0, "revenue", 200), (1, "visitors", 200), (1, "revenue", 403)])
    func writePermission(token: Int, id: String, status: Int) throws {
        let context = try F.context(F.request("POST"), parameters: ["id": id], token: F.tokens[token])
        let outcome = run(WritePermission(), context)
        #expect(outcome.status == status)
        if status == 403 { #expect(outcome.response?.detail == #"this token may not write "revenue""#) }
    }

    @Test(
        "the body limit: JSON only (415), at most limits.maxBodyBytes (413); an empty body only where allowed",
        arguments: [
            ("application/json" as String?, 20, false, 200),
            ("application/json; charset=utf-8", 20, false, 200),
            ("Application/JSON", 1024, false, 200),
            ("application/json", 1025, false, 413),
            ("text/plain", 20, false, 415),
            (nil, 20, false, 415),
            ("text/plain", 2000, false, 415),
            (nil, 0, false, 415),
            (nil, 0, true, 200),
            ("text/plain", 1, true, 415),
        ])
    func bodyLimit(contentType: String?, bytes: Int, allowsEmpty: Bool, status: Int) throws {
        let request = F.request(
            "POST", headers: contentType.map { [("Content-Type", $0)] } ?? [],
            body: String(repeating: " ", count: bytes))
        let context = try F.context(request, serverYAML: "limits: {maxBodyBytes: 1024}")
        let outcome = run(BodyLimit(allowsEmpty: allowsEmpty), context)
        #expect(outcome.status == status)
        if status == 413 { #expect(outcome.response?.detail == "the body has 1025 bytes; at most 1024 are accepted (limits.maxBodyBytes in server.yaml)") }
    }

    @Test(
        "request ids: a sane id the caller gave is kept, anything else replaced by a new one",
        arguments: [
            ("proxy-7.a_b" as String?, true), (nil, false), ("", false), ("two words", false),
            (String(repeating: "a", count: 65), false),
        ])
    func requestIDs(given: String?, kept: Bool) throws {
        let middleware = RequestIdentification(ids: RequestIDs(), logger: Logger(label: "test.ids"))
        let request = F.request(headers: given.map { [("X-Request-Id", $0)] } ?? [])
        let id = try #require(run(middleware, try F.context(request)).response?.headers["X-Request-Id"])
        #expect((id == given) == kept)
        #expect(!id.isEmpty)
    }

    @Test("request metrics count accepted writes and refusals by status, and writes' answers for /metrics")
    func requestMetrics() throws {
        let server = ServerMetrics()
        let counting = RequestMetrics(metrics: server)
        let answers: [(String, HTTPStatus)] = [
            ("POST", .accepted), ("POST", .badRequest), ("GET", .ok), ("GET", .notFound), ("POST", .accepted),
        ]
        for (method, status) in answers {
            let context = try F.context(F.request(method))
            try counting.handle(context, respond: { _ in }) { _, respond in
                respond(HTTPResponse(status: status, contentType: "text/plain", text: ""))
            }
        }
        #expect(counting.statistics == ProducerAPIStatistics(acceptedWrites: 2, refused: [400: 1, 404: 1]))
        let text = server.prometheusText()
        #expect(text.contains("rollboard_posts_accepted_total 2\n"))
        #expect(text.contains("rollboard_posts_refused_total{status=\"400\"} 1\n"), "reads are not writes")
    }

    @Test("a write's time is counted from its request to its answer, on the node's clock")
    func requestMetricsTimeWrites() throws {
        let server = ServerMetrics()
        let manual = ManualClock(at: 100)
        let context = RequestContext(
            request: F.request("POST"), snapshot: try F.configurations(serverYAML: "dashboardAccess: key").snapshot,
            clock: NodeClock(monotonic: manual.clock, wall: manual.clock))
        try RequestMetrics(metrics: server).handle(context, respond: { _ in }) { _, respond in
            manual.step(to: 100.004)
            respond(HTTPResponse(status: .accepted, contentType: "text/plain", text: ""))
        }
        let text = server.prometheusText()
        #expect(text.contains("rollboard_post_seconds_bucket{le=\"0.002\"} 0\n"))
        #expect(text.contains("rollboard_post_seconds_bucket{le=\"0.005\"} 1\n"))
    }
}
