package import RollboardAccess
package import RollboardConfig
package import RollboardCore
package import RollboardHub
import RollboardNet
package import RollboardRedisLog
package import RollboardStore

/// A response callback: called exactly once, on any queue.
typealias Respond = @Sendable (HTTPResponse) -> Void

/// The end of a chain: answers the request or throws the refusal, which the router turns into its JSON response.
typealias Handler = @Sendable (RequestContext, @escaping Respond) throws(APIError) -> Void

/// One request on its way through the router: the request, the configuration in force when it arrived (taken once),
/// the path's parameters and what middleware learnt of it.
struct RequestContext: Sendable {
    let request: HTTPRequest
    /// The configuration and access rules in force for the whole request.
    let snapshot: ConfigurationSnapshot
    /// The route's parameters (`:id` in `/api/v1/metrics/:id`); empty until a route matched.
    var parameters: [String: String] = [:]
    /// The producer token the request authenticated with, once ``ProducerAuthentication`` accepted it.
    var producerToken: ProducerToken?
    /// The node's clock: commit deadlines and the series' "now" run by it.
    let clock: NodeClock

    init(request: HTTPRequest, snapshot: ConfigurationSnapshot, clock: NodeClock = .system) {
        self.request = request
        self.snapshot = snapshot
        self.clock = clock
    }

    var configuration: RollboardConfiguration { snapshot.configuration }
    var access: ViewerAccess { snapshot.access }

    /// The value of the route parameter `name`; the route table guarantees its presence.
    func parameter(_ name: String) -> String {
        guard let value = parameters[name] else { preconditionFailure("route has no parameter :\(name)") }
        return value
    }
}
