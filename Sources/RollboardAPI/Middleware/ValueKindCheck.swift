package import RollboardAccess
package import RollboardConfig
package import RollboardHub
package import RollboardMetrics
import RollboardNet
package import RollboardStore

/// The route's `:id` must be a value of `kind` that some tile shows: else 404 `unknown_<kind>`, naming the route of
/// the kind it is when it is another.
struct ValueKindCheck: Middleware {
    let kind: MetricCatalog.Kind

    func handle(
        _ context: RequestContext, respond: @escaping Respond, next: (RequestContext, @escaping Respond) -> Void
    ) throws(APIError) {
        let id = context.parameter("id")
        let actual = context.configuration.catalog.kind(of: id)
        guard actual == kind else {
            let noun = kind == .metric ? "metric" : kind.rawValue
            guard let actual else {
                throw .notFound("unknown_\(noun)", "unknown \(noun) \(JSONText.quoted(id)) (no tile shows it)")
            }
            let route = actual == .metric ? "metrics" : actual.rawValue + "s"
            throw .notFound(
                "unknown_\(noun)", "\(JSONText.quoted(id)) is a \(actual.rawValue); use /api/v1/\(route)/\(id)")
        }
        next(context, respond)
    }
}
