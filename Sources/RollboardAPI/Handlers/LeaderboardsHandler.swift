package import RollboardAccess
import RollboardAnimation
package import RollboardConfig
package import RollboardCore
package import RollboardHub
package import RollboardMetrics
import RollboardNet
package import RollboardRedisLog
package import RollboardStore

/// `/api/v1/leaderboards/{id}`: a leaderboard's board, read and written (answered `202` once durable).
struct LeaderboardsHandler: Sendable {
    let store: any ChangeLog

    func get(_ context: RequestContext, _ respond: @escaping Respond) {
        let id = context.parameter("id")
        guard let board = store.leaderboard(id) else {
            return respond(JSONResponse.ok(ValueJSON.unset(id, ["entries", "seq", "updatedAt"])))
        }
        respond(JSONResponse.ok(Self.json(board, withTime: true)))
    }

    func post(_ context: RequestContext, _ respond: @escaping Respond) throws(APIError) {
        let id = context.parameter("id")
        let limit = context.configuration.server.limits.maxLeaderboardEntries
        let edit = try LeaderboardRequest.edit(try JSONBody.object(context.request), limit: limit)
        let catalog = context.configuration.catalog
        let request = LeaderboardCommitRequest(
            id: id, edit: edit, limit: limit, requestKey: try MetricUpdateRequest.idempotencyKey(context.request),
            problem: { catalog.problem(showing: $0, as: id) })
        let respond = CommitDeadline.answer(context, respond)
        store.commitLeaderboard(request) { result in
            switch result {
            case .success(let outcome):
                var response = JSONResponse.accepted(Self.json(outcome.board, withTime: false))
                if outcome.replayed { response.headers.add(name: "Idempotent-Replayed", value: "true") }
                respond(response)
            case .failure(.store(let error)):
                respond(APIError.storeUnavailable(error).response)
            case .failure(.refused(let refusal)):
                respond(APIError.invalidValue("\(refusal.field): \(refusal.reason)").response)
            }
        }
    }

    /// `{"id":…,"entries":{name: score, …} best first,"seq":…}`, and `updatedAt` with `withTime`.
    static func json(_ board: StoredLeaderboard, withTime: Bool) -> JSONValue {
        var members = [
            JSONMember("id", .string(board.id)),
            JSONMember(
                "entries",
                .object(LeaderboardEntry.ranked(board.entries).map { JSONMember($0.name, .number($0.value)) })),
            JSONMember("seq", .number(board.seq)),
        ]
        if withTime { members.append(JSONMember("updatedAt", .string(iso8601(board.updatedAt)))) }
        return .object(members)
    }
}
