package import RollboardAccess
package import RollboardConfig
package import RollboardCore
package import RollboardHub
import RollboardNet
package import RollboardStore

/// The viewer scope: a read of a dashboard, or of a value some dashboard shows (the route's `:id`), needs what that
/// dashboard's access asks for: nothing for a public one, else a viewer key that opens it or a producer or admin
/// token (401 without, 403 with a key that does not open it).
struct ViewerAuthorization: Middleware {
    package enum Target: Sendable {
        /// `:id` is a dashboard; an unknown one is 404.
        case dashboard
        /// `:id` is a value shown on dashboards.
        case value
    }

    let target: Target

    func handle(
        _ context: RequestContext, respond: @escaping Respond, next: (RequestContext, @escaping Respond) -> Void
    ) throws(APIError) {
        let id = context.parameter("id")
        let access = context.access
        let credential = access.credential(of: context.request)
        switch target {
        case .dashboard:
            guard let dashboard = context.configuration.dashboard(id) else {
                throw .notFound("unknown_dashboard", "no dashboard \(JSONText.quoted(id))")
            }
            switch access.decide(dashboard, credential) {
            case .granted: break
            case .keyRequired: throw .viewerKeyRequired("dashboard \(JSONText.quoted(id)) needs a viewer key")
            case .keyRefused: throw .viewerKeyRefused("the key is not valid for dashboard \(JSONText.quoted(id))")
            }
        case .value:
            switch access.decide(valueOf: id, credential) {
            case .granted: break
            case .keyRequired:
                throw .viewerKeyRequired(
                    "\(JSONText.quoted(id)) is shown only on dashboards that need a viewer key: add ?key=KEY or "
                        + "Authorization: Bearer KEY")
            case .keyRefused:
                throw .viewerKeyRefused("the key is not valid for any dashboard that shows \(JSONText.quoted(id))")
            }
        }
        next(context, respond)
    }
}
