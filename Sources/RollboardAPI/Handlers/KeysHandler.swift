import Logging
package import RollboardAccess
package import RollboardConfig
package import RollboardCore
package import RollboardHub
import RollboardNet
package import RollboardRedisLog
package import RollboardStore

/// `/api/v1/admin/keys` and `/api/v1/admin/keys/{id}`: viewer keys created (their secret shown once), listed and
/// revoked, all through the change log so that every node follows.
struct KeysHandler: Sendable {
    let keys: ViewerKeys
    let logger: Logger
    /// The wall clock, in seconds since 1970 (a key's `createdAt`).
    let now: @Sendable () -> Double
    /// Whether other nodes share the change log: a revocation then closes screens this node cannot count.
    var isShared = false

    func list(_ context: RequestContext, _ respond: @escaping Respond) {
        respond(JSONResponse.ok(.object([JSONMember("keys", .array(keys.all.map { json($0, secret: nil) }))])))
    }

    func create(_ context: RequestContext, _ respond: @escaping Respond) throws(APIError) {
        let (name, dashboards) = try AdminRequest.key(
            try JSONBody.object(context.request), configuration: context.configuration)
        // Through the change log, so every node opens screens with it; answered once durable and in force here.
        keys.create(name: name, dashboards: dashboards, now: now()) { [self] result in
            switch result {
            case .success(let created):
                logger.notice(
                    "viewer key created",
                    metadata: ["key": "\(created.key.id)", "name": "\(name)", "dashboards": "\(dashboards ?? ["*"])"])
                let body = json(created.key, secret: created.secret)
                var response = HTTPResponse(status: .created, contentType: "application/json", text: body.serialized)
                response.headers.add(name: "Cache-Control", value: "no-store")
                respond(response)
            case .failure(let error):
                respond(Self.unavailable(error).response)
            }
        }
    }

    func revoke(_ context: RequestContext, _ respond: @escaping Respond) {
        let id = context.parameter("id")
        // Through the change log, so the key's screens close on every node; answered once applied here.
        keys.revoke(id) { [self] result in
            switch result {
            case .success(let revoked?):
                logger.notice(
                    "viewer key revoked", metadata: ["key": "\(id)", "closedScreens": "\(revoked.closedScreens)"])
                respond(
                    JSONResponse.ok(
                        .object([
                            JSONMember("id", .string(id)),
                            JSONMember("revoked", .bool(true)),
                        ]
                            + closedScreens(revoked.closedScreens))))
            case .success(nil):
                respond(APIError.notFound("unknown_key", "no viewer key \(JSONText.quoted(id))").response)
            case .failure(let error):
                respond(Self.unavailable(error).response)
            }
        }
    }

    /// How many screens the revocation closed: the count when this node is the only one; with other nodes on the
    /// change log, `closedScreens` is `null` (they close theirs as they apply it, uncounted here) and
    /// `closedScreensHere` counts this node's.
    private func closedScreens(_ count: Int) -> [JSONMember] {
        guard isShared else { return [JSONMember("closedScreens", .number(count))] }
        return [JSONMember("closedScreens", .null), JSONMember("closedScreensHere", .number(count))]
    }

    private static func unavailable(_ error: ViewerKeyError) -> APIError {
        APIError(status: .serviceUnavailable, code: "keys_unavailable", detail: error.description)
    }

    private func json(_ key: ViewerKey, secret: String?) -> JSONValue {
        var members = [
            JSONMember("id", .string(key.id)),
            JSONMember("name", .string(key.name)),
            JSONMember("dashboards", key.dashboards.map { .array($0.map(JSONValue.string)) } ?? .null),
            JSONMember("createdAt", .string(iso8601(key.createdAt))),
        ]
        if let secret {
            members.append(JSONMember("key", .string(secret)))
        } else {
            members.append(JSONMember("screens", .number(keys.screenCount(of: key.id))))
        }
        return .object(members)
    }
}
