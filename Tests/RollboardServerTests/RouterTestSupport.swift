import Logging
import RollboardNet
import Synchronization

@testable import RollboardCore
@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardRedisLog
@testable import RollboardAccess
@testable import RollboardHub
@testable import RollboardAPI
@testable import RollboardServer

/// A configuration for routing tests: `lobby` is public and shows `visitors` and the wheel `status`; `finance` needs a
/// key and shows `revenue`; `notice` is a text and `news` a carousel.
enum RoutingFixture {
    static let producerToken = "routing-producer-token-0123"
    static let restrictedToken = "routing-restricted-token-01"
    static let adminToken = "routing-admin-token-0123456"

    static let tokens = [
        ProducerToken(token: producerToken), ProducerToken(token: restrictedToken, metrics: ["visitors"]),
    ]

    static func configurations(serverYAML: String = "dashboardAccess: key") throws -> ConfigurationStore {
        let configuration = try RollboardConfiguration.parse(
            serverYAML: serverYAML,
            dashboards: [
                (
                    "config/dashboards/lobby.yaml",
                    "id: lobby\naccess: public\ntiles:\n  - {id: visitors, type: counter}\n"
                        + "  - {id: status, type: wheel, contents: [ok, down]}\n  - {id: notice, type: text}\n"
                        + "  - {id: news, type: carousel, slides: [{text: a}]}\n"
                ),
                ("config/dashboards/finance.yaml", "id: finance\ntiles:\n  - {id: revenue, type: counter}\n"),
            ])
        return ConfigurationStore(
            configuration, readerTokens: tokens.map(\.token) + [adminToken], logger: Logger(label: "test.routing"))
    }

    static func request(
        _ method: String = "GET", _ target: String = "/api/v1/metrics", bearer: String? = nil,
        headers extra: [(String, String)] = [], body: String = ""
    ) -> HTTPRequest {
        var headers: HTTPHeaders = [:]
        if let bearer { headers.add(name: "Authorization", value: "Bearer \(bearer)") }
        for (name, value) in extra { headers.add(name: name, value: value) }
        return HTTPRequest(method: method, target: target, headers: headers, body: Array(body.utf8))
    }

    static func context(
        _ request: HTTPRequest, parameters: [String: String] = [:], token: ProducerToken? = nil,
        serverYAML: String = "dashboardAccess: key"
    ) throws -> RequestContext {
        var context = RequestContext(request: request, snapshot: try configurations(serverYAML: serverYAML).snapshot)
        context.parameters = parameters
        context.producerToken = token
        return context
    }
}

/// What one middleware did with one request: the context it passed on (nil: it refused or answered itself) and the
/// response that came back through it (its refusal, or the `200` the next step answered, as it wrapped it).
struct MiddlewareOutcome {
    var passed: RequestContext?
    var response: HTTPResponse?

    var status: Int? { response?.status.code }
}

/// Runs `middleware` on `context`; the next step answers `200` at once. Every middleware under test calls `next`
/// and `respond` synchronously, so the outcome is complete on return.
func run(_ middleware: any Middleware, _ context: RequestContext) -> MiddlewareOutcome {
    let outcome = Mutex(MiddlewareOutcome())
    let respond: Respond = { response in outcome.withLock { $0.response = response } }
    do throws(APIError) {
        try middleware.handle(context, respond: respond) { passed, respond in
            outcome.withLock { $0.passed = passed }
            respond(HTTPResponse(status: .ok, contentType: "text/plain", text: "next"))
        }
    } catch {
        respond(error.response)
    }
    return outcome.withLock { $0 }
}
