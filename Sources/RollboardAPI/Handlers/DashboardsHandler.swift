package import RollboardAccess
package import RollboardConfig
package import RollboardCore
package import RollboardHub
import RollboardNet
package import RollboardStore

/// `/api/v1/dashboards` (the dashboards and playlists a reader may see) and `/api/v1/dashboards/{id}` (one, once
/// ``ViewerAuthorization`` admitted the reader).
struct DashboardsHandler: Sendable {
    func list(_ context: RequestContext, _ respond: @escaping Respond) {
        let access = context.access
        let credential = access.credential(of: context.request)
        let playlists = access.visiblePlaylists(credential).map { playlist in
            JSONValue.object([
                JSONMember("id", .string(playlist.id)), JSONMember("title", .string(playlist.title)),
                JSONMember("entries", .array(playlist.entries.map { .string($0.dashboard) })),
            ])
        }
        let dashboards = access.visibleDashboards(credential).map(context.configuration.json)
        respond(
            JSONResponse.ok(
                .object([
                    JSONMember("dashboards", .array(dashboards)),
                    JSONMember("playlists", .array(playlists)),
                ])))
    }

    func get(_ context: RequestContext, _ respond: @escaping Respond) {
        guard let dashboard = context.configuration.dashboard(context.parameter("id")) else {
            preconditionFailure("ViewerAuthorization refuses unknown dashboards")
        }
        respond(JSONResponse.ok(context.configuration.json(dashboard)))
    }
}
