import RollboardConfig
package import RollboardCore
package import RollboardHub
import RollboardNet
package import RollboardStore

/// `GET /api/v1/admin/dashboards`: what the console's Dashboards page shows. Every configured dashboard with its page,
/// this node's screens on it and its stale tiles (``RollboardConfiguration/isStale(_:updatedAt:now:)`` on the node's
/// wall clock: the rule the wall page marks tiles by), and every playlist with its page.
struct AdminDashboardsHandler: Sendable {
    let store: any ChangeLog
    /// This node's screens (`nil`: none are counted).
    let directory: DashboardDirectory?

    /// `{"dashboards":[{"id","title","url","screens","staleTiles":[{"tile","title","metric","updatedAt","staleAfter"}]}],
    /// "playlists":[{"id","title","url"}]}`, in configuration order.
    func list(_ context: RequestContext, _ respond: @escaping Respond) {
        let configuration = context.configuration
        let snapshot = store.snapshot
        let now = context.clock.wall.now()
        let dashboards = configuration.dashboards.map { dashboard in
            let stale = dashboard.tiles.compactMap { tile -> JSONValue? in
                let updatedAt = snapshot.valueUpdatedAt(tile.metric)
                guard configuration.isStale(tile, updatedAt: updatedAt, now: now),
                    let staleAfter = configuration.staleAfter(tile)
                else { return nil }
                return .object([
                    JSONMember("tile", .string(tile.id)), JSONMember("title", .optional(tile.title.map(JSONValue.string))),
                    JSONMember("metric", .string(tile.metric)),
                    JSONMember("updatedAt", .optional(updatedAt.map { .string(iso8601($0)) })),
                    JSONMember("staleAfter", .number(staleAfter)),
                ])
            }
            return JSONValue.object([
                JSONMember("id", .string(dashboard.id)), JSONMember("title", .string(dashboard.title)),
                JSONMember("url", .string("/d/" + dashboard.id)),
                JSONMember("screens", .number(directory?.screens.count(showing: dashboard.id) ?? 0)),
                JSONMember("staleTiles", .array(stale)),
            ])
        }
        let playlists = configuration.playlists.map { playlist in
            JSONValue.object([
                JSONMember("id", .string(playlist.id)), JSONMember("title", .string(playlist.title)),
                JSONMember("url", .string("/p/" + playlist.id)),
            ])
        }
        respond(
            JSONResponse.ok(
                .object([JSONMember("dashboards", .array(dashboards)), JSONMember("playlists", .array(playlists))])))
    }
}
