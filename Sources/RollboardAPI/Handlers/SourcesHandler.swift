package import RollboardConfig
package import RollboardCore
package import RollboardHub
package import RollboardMetrics
import RollboardNet
package import RollboardSources
package import RollboardStore

/// `GET /api/v1/admin/sources`: each scheduled source's state, last success, last error and next fetch. Never its
/// URL, headers or answers (they may carry secrets).
struct SourcesHandler: Sendable {
    /// `nil`: this node runs no sources (the list is empty).
    let scheduler: SourceScheduler?

    func list(_ context: RequestContext, _ respond: @escaping Respond) {
        let sources = (scheduler?.statuses ?? []).map { status in
            JSONValue.object([
                JSONMember("id", .string(status.id)),
                JSONMember("type", .string(status.kind.rawValue)),
                JSONMember("every", .number(status.every)),
                JSONMember("state", .string(status.health.name)),
                JSONMember("reason", .optional(status.health.reason.map(JSONValue.string))),
                JSONMember("lastSuccess", .optional(status.lastSuccess.map { .string(iso8601($0)) })),
                JSONMember(
                    "lastError",
                    .optional(
                        status.lastError.map { error in
                            .object([
                                JSONMember("reason", .string(error.reason)),
                                JSONMember("at", .string(iso8601(error.at))),
                            ])
                        })),
                JSONMember("nextFetch", .optional(status.nextFetch.map { .string(iso8601($0)) })),
                JSONMember("polledHere", .bool(status.polledHere)),
            ])
        }
        respond(JSONResponse.ok(.object([JSONMember("sources", .array(sources))])))
    }
}
