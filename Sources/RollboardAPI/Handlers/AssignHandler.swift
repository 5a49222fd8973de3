import Logging
package import RollboardAccess
package import RollboardCore
package import RollboardHub
import RollboardNet
package import RollboardStore

/// `POST /api/v1/admin/screens/{screen}/assign {"show":{"dashboard":ID}|{"playlist":ID},"theme"?,"kiosk"?}`: moves
/// the screens of that name (paired or opened by URL) to another dashboard or playlist, on whichever node they are
/// connected. A paired TV's key (a key in force named like the screen, limited to some dashboards) is given exactly
/// the new target's dashboards first, then the assignment is committed, so every node lets the TV in where it goes
/// and its key opens nothing else. See `docs/pairing.md`.
struct AssignHandler: Sendable {
    let store: any ChangeLog
    /// This node's screens (a number in the path is one of their ids).
    let directory: DashboardDirectory?
    let keys: ViewerKeys
    let logger: Logger

    /// 202 `{"screen":NAME,"url":PAGE,"keys":[ID…],"screens":N,"seq":S}` once both are durable: `keys` the pairing
    /// keys now limited to the new target, `screens` how many of this node's screens have the name.
    func assign(_ context: RequestContext, _ respond: @escaping Respond) throws(APIError) {
        let name = try ScreensHandler.screenName(context.parameter("id"), directory: directory)
        let body = try JSONBody.object(context.request)
        try JSONBody.rejectUnknownFields(body, allowed: ["show", "theme", "kiosk"], prefix: "")
        let target = try ScreenPage(body, name: name, configuration: context.configuration)
        // A screen's name is its key's as the registry keeps it (at most 64 visible characters; a pairing's may be longer).
        keys.limit(named: { ScreenRegistry.cleanName($0) == name }, to: target.dashboards) { [self] result in
            switch result {
            case .failure(let error):
                respond(APIError(status: .serviceUnavailable, code: "keys_unavailable", detail: error.description).response)
            case .success(let keyIDs):
                store.commandScreens(.assign(screen: name, page: target.page)) { result in
                    switch result {
                    case .failure(let error): respond(APIError.storeUnavailable(error).response)
                    case .success(let command):
                        logger.notice("screen assigned", metadata: ["screen": "\(name)", "page": "\(target.page)"])
                        let here = directory?.screens.count(named: name) ?? 0
                        respond(JSONResponse.accepted(.object([
                            JSONMember("screen", .string(name)), JSONMember("url", .string(target.page)),
                            JSONMember("keys", .array(keyIDs.map(JSONValue.string))),
                            JSONMember("screens", .number(here)), JSONMember("seq", .number(command.seq)),
                        ])))
                    }
                }
            }
        }
    }
}
