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

/// The router on a small table whose handlers answer with what they were given.
@Suite("Router")
struct RouterTests {
    /// Adds `X-Step: <name>` on the way back, so a test sees which middleware an answer passed.
    private struct Tag: Middleware {
        let name: String

        func handle(
            _ context: RequestContext, respond: @escaping Respond, next: (RequestContext, @escaping Respond) -> Void
        ) throws(APIError) {
            next(context) { response in
                var response = response
                response.headers.add(name: "X-Step", value: name)
                respond(response)
            }
        }
    }

    private static func echo(_ name: String) -> Handler {
        { context, respond in
            let parameters = context.parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            let text = ([name] + parameters).joined(separator: " ")
            respond(HTTPResponse(status: .ok, contentType: "text/plain", text: text))
        }
    }

    private static func router() throws -> Router {
        let things = RouteGroup(
            claims: { $0.hasPrefix("/things") }, middleware: [Tag(name: "things")],
            routes: [
                .read("/things", [], Self.echo("list")),
                .post("/things", [Tag(name: "write")], Self.echo("create")),
                .read("/things/special", [], Self.echo("special")),
                .read("/things/:id", [], Self.echo("get")),
                .delete("/things/:id", [], Self.echo("delete")),
                .post("/things/:id/parts/:part", [], Self.echo("part")),
                .read("/things/:id/refuse") { _, _ throws(APIError) in throw .forbidden("not this one") },
            ])
        let guarded = RouteGroup(
            claims: { $0.hasPrefix("/guarded") },
            middleware: [Lookup { _ throws(APIError) in throw .invalidAdminToken }],
            routes: [.read("/guarded/open", [], Self.echo("open"))])
        return Router(
            configurations: try RoutingFixture.configurations(),
            middleware: [RequestIdentification(ids: RequestIDs(), logger: Logger(label: "test.router"))],
            groups: [things, guarded], logger: Logger(label: "test.router"))
    }

    private func send(_ router: Router, _ method: String, _ target: String) async -> HTTPResponse {
        await withCheckedContinuation { continuation in
            router.handle(RoutingFixture.request(method, target)) { continuation.resume(returning: $0) }
        }
    }

    @Test(
        "a request reaches the first route whose method and path match, with the path's parameters",
        arguments: [
            ("GET", "/things", "list"),
            ("HEAD", "/things", "list"),
            ("POST", "/things", "create"),
            ("GET", "/things/7", "get id=7"),
            ("GET", "/things/7/", "get id=7"),
            ("GET", "/things//7", "get id=7"),
            ("DELETE", "/things/7", "delete id=7"),
            ("GET", "/things/special", "special"),
            ("DELETE", "/things/special", "delete id=special"),
            ("POST", "/things/7/parts/wheel", "part id=7 part=wheel"),
        ])
    func matches(method: String, target: String, answer: String) async throws {
        let response = await send(try Self.router(), method, target)
        #expect(response.status == .ok)
        #expect(String(decoding: response.body, as: UTF8.self) == answer)
    }

    @Test(
        "a path no route has is 404, a method its routes do not take is 405 naming every one they take",
        arguments: [
            ("GET", "/things/7/parts", 404, nil as String?, "no such endpoint: /things/7/parts"),
            ("GET", "/thingsx", 404, nil, "no such endpoint: /thingsx"),
            ("PUT", "/things", 405, "GET, HEAD, POST", "/things accepts GET, HEAD, POST, not PUT"),
            ("POST", "/things/7", 405, "GET, HEAD, DELETE", "/things/7 accepts GET, HEAD, DELETE, not POST"),
            ("POST", "/things/special", 405, "GET, HEAD, DELETE",
             "/things/special accepts GET, HEAD, DELETE, not POST"),
            ("GET", "/things/7/parts/a", 405, "POST", "/things/7/parts/a accepts POST, not GET"),
        ] as [(String, String, Int, String?, String)])
    func refuses(method: String, target: String, status: Int, allow: String?, detail: String) async throws {
        let response = await send(try Self.router(), method, target)
        #expect(response.status.code == status)
        #expect(response.headers["Allow"] == allow)
        #expect(response.detail == detail)
        #expect(response.errorCode == (status == 404 ? "not_found" : "method_not_allowed"))
    }

    @Test("a refusal thrown by a handler comes back through every middleware the request passed, with a request id")
    func refusalsPassMiddleware() async throws {
        let response = await send(try Self.router(), "GET", "/things/7/refuse")
        #expect(response.status == .forbidden)
        #expect(response.text == #"{"error":"forbidden","detail":"not this one"}"#)
        #expect(response.headers["X-Step"] == "things")
        #expect(response.headers["X-Request-Id"] != nil)
    }

    @Test("route middleware runs only for its route, after the group's")
    func routeMiddleware() async throws {
        let router = try Self.router()
        let created = await send(router, "POST", "/things")
        #expect(created.headers.values(for: "X-Step") == ["write", "things"])
        let listed = await send(router, "GET", "/things")
        #expect(listed.headers.values(for: "X-Step") == ["things"])
    }

    @Test("a group's middleware answers before its paths are matched: a refusal there hides even a wrong path")
    func groupMiddlewareFirst() async throws {
        let router = try Self.router()
        for target in ["/guarded/open", "/guarded/nowhere"] {
            let response = await send(router, "DELETE", target)
            #expect(response.status == .unauthorized)
            #expect(response.detail == "the bearer token is not an admin token")
        }
    }

    @Test(
        "the router claims the paths of its groups only",
        arguments: [("/things", true), ("/guarded/x", true), ("/", false), ("/d/x", false)])
    func claims(path: String, expected: Bool) throws {
        #expect(try Self.router().handles(path: path) == expected)
    }
}
