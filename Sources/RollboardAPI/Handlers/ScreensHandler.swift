import Dispatch
import Logging
package import RollboardAccess
package import RollboardConfig
package import RollboardCore
package import RollboardHub
import RollboardRedis
package import RollboardMetrics
import RollboardNet
package import RollboardRedisLog
package import RollboardSources
package import RollboardStore
import Synchronization

/// `/api/v1/screens` and the admin commands to screens: reload or announce on a dashboard's screens, announce on
/// every screen, and ask one screen to identify itself. Commands go through the change log, so the screens on
/// every node follow them, and are answered once durable (503 when the change log refuses them).
struct ScreensHandler: Sendable {
    let store: any ChangeLog
    /// This node's name, as each listed screen says where it is connected.
    let node: String
    /// The dashboards' hubs and their screens (`nil`: no screens to list or control).
    let directory: DashboardDirectory?
    let logger: Logger
    /// With Redis, the nodes' published lists and this node's id among them (`?cluster`).
    var cluster: (lists: RedisScreenLists, id: String)? = nil

    /// 404 unless dashboard `:id` has a hub.
    func requireHub(_ context: RequestContext) throws(APIError) {
        let id = context.parameter("id")
        guard directory?.hub(id) != nil else {
            throw .notFound("unknown_dashboard", "no dashboard \(JSONText.quoted(id)) is configured")
        }
    }

    func reloadDashboard(_ context: RequestContext, _ respond: @escaping Respond) {
        let id = context.parameter("id")
        command(.reloadDashboard(id), respond) { [self] command in
            logger.notice("screens reloaded", metadata: ["dashboard": "\(id)"])
            return accepted(dashboard: id, extra: [JSONMember("seq", .number(command.seq))])
        }
    }

    func announceOnDashboard(_ context: RequestContext, _ respond: @escaping Respond) throws(APIError) {
        let id = context.parameter("id")
        let (text, seconds) = try AdminRequest.announcement(try JSONBody.object(context.request))
        command(.announce(dashboard: id, text: text, seconds: seconds), respond) { [self] command in
            logger.notice("announcement shown", metadata: ["dashboard": "\(id)", "seconds": "\(seconds)"])
            let extra = [JSONMember("seconds", .number(seconds)), JSONMember("seq", .number(command.seq))]
            return accepted(dashboard: id, extra: extra)
        }
    }

    func announceEverywhere(_ context: RequestContext, _ respond: @escaping Respond) throws(APIError) {
        let (text, seconds) = try AdminRequest.announcement(try JSONBody.object(context.request))
        command(.announceEverywhere(text: text, seconds: seconds), respond) { [self] command in
            logger.notice("announcement shown on every screen", metadata: ["seconds": "\(seconds)"])
            return JSONResponse.accepted(
                .object([
                    JSONMember("everywhere", .bool(true)), JSONMember("seconds", .number(seconds)),
                    JSONMember("seq", .number(command.seq)),
                ]))
        }
    }

    /// `POST /api/v1/admin/screens/{screen}/reload`: 202 `{"screen":NAME,"screens":N,"seq":S}` once committed: the
    /// screens of that name reload their page on every node (`screens`: how many are on this one).
    func reloadScreen(_ context: RequestContext, _ respond: @escaping Respond) throws(APIError) {
        let name = try Self.screenName(context.parameter("id"), directory: directory)
        command(.reloadScreen(name), respond) { [self] command in
            logger.notice("screen reloaded", metadata: ["screen": "\(name)"])
            return accepted(screen: name, extra: [JSONMember("seq", .number(command.seq))])
        }
    }

    /// `POST /api/v1/admin/screens/{screen}/identify`: a connected screen's id (digits) asks that one screen of this
    /// node, at once: 202 `{"screen":ID,"name","seconds"}`, 404 when it is gone. A name is a sequenced change: the
    /// screens of that name on every node show it, 202 `{"screen":NAME,"screens":N,"seconds","seq"}` once committed.
    func identify(_ context: RequestContext, _ respond: @escaping Respond) throws(APIError) {
        let given = context.parameter("id")
        var found: (id: Int, screen: ScreenRegistry.Screen)?
        if !given.isEmpty && given.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) { found = try screen(context) }
        let body: JSONValue? = try context.request.body.isEmpty ? nil : JSONBody.object(context.request)
        let seconds = try AdminRequest.identifySeconds(body)
        guard let found else {
            let name = try Self.screenName(given, directory: directory)
            return command(.identify(screen: name, seconds: seconds), respond) { [self] command in
                let extra = [JSONMember("seconds", .number(seconds)), JSONMember("seq", .number(command.seq))]
                return accepted(screen: name, extra: extra)
            }
        }
        let (id, screen) = found
        screen.hub.identify(screen.sessionID, name: screen.name ?? "Screen \(id)", seconds: seconds)
        respond(
            JSONResponse.accepted(
                .object([
                    JSONMember("screen", .number(id)), JSONMember("name", .optional(screen.name.map(JSONValue.string))),
                    JSONMember("seconds", .number(seconds)),
                ])))
    }

    /// `{"screens":[…]}`: every connected screen with what its hub knows of it (frame rate, pause, skipped frames)
    /// and what it reported itself (frames painted per second, paint time, the script error that kept it from
    /// starting).
    /// `GET /api/v1/screens`: this node's screens; with `?cluster`, and Redis, every node's (this one's as they are,
    /// the others' as they last published them, at most a few seconds old), and `nodes`, the names listing some.
    func list(_ context: RequestContext, _ respond: @escaping Respond) {
        guard context.request.query["cluster"] != nil, let cluster else {
            return items { respond(JSONResponse.ok(.object([JSONMember("screens", .array($0))]))) }
        }
        Self.clusterLists(cluster.lists, clock: context.clock.monotonic) { [self] result in
            switch result {
            case .failure(let error):
                respond(
                    APIError(
                        status: .serviceUnavailable, code: "redis_unavailable",
                        detail: "Redis did not answer with the other nodes' screens (\(error))"
                    ).response)
            case .success(let published):
                items { own in
                    var all = own
                    for (id, list) in published where id != cluster.id {
                        if case .array(let screens)? = try? JSONParser.parse(Array(list.utf8)) { all += screens }
                    }
                    var nodes: [String] = []
                    for case .string(let name)? in all.map({ $0["node"] }) where !nodes.contains(name) {
                        nodes.append(name)
                    }
                    respond(
                        JSONResponse.ok(
                            .object([
                                JSONMember("screens", .array(all)),
                                JSONMember("nodes", .array(nodes.map(JSONValue.string))),
                            ])))
                }
            }
        }
    }

    /// Where a read of lists nobody had watched waits for them.
    private static let waiting = DispatchQueue(label: "rollboard.screen-lists.read")

    /// Every node's published list, the lists marked watched. When nobody had watched them, no node was publishing:
    /// they are read again once every node has published (``ScreenListPublishing/Defaults/firstPublication``).
    private static func clusterLists(
        _ lists: RedisScreenLists, clock: FrameClock,
        completion: @escaping @Sendable (Result<[(id: String, list: String)], RedisError>) -> Void
    ) {
        let watch = Int(ScreenListPublishing.Defaults.watched * 1000)
        lists.read(watchMilliseconds: watch) { result in
            guard case .success(let found) = result, !found.wasWatched else { return completion(result.map(\.lists)) }
            let timer = clock.makeTimer(waiting)
            timer.activate {
                timer.cancel()  // fired for good; cancelling releases the handler and what it holds
                lists.read(watchMilliseconds: watch) { completion($0.map(\.lists)) }
            }
            timer.arm(at: clock.now() + ScreenListPublishing.Defaults.firstPublication)
        }
    }

    /// This node's screens as `GET /api/v1/screens` lists them.
    func items(_ completion: @escaping @Sendable ([JSONValue]) -> Void) {
        let screens = directory?.screens.all ?? []
        let hubs = Dictionary(screens.map { ($0.dashboard, $0.hub) }, uniquingKeysWith: { first, _ in first })
        let statuses = Mutex<[String: [Int: ScreenStatus]]>([:])
        let group = DispatchGroup()
        for (dashboard, hub) in hubs {
            group.enter()
            hub.screenStatuses { found in
                statuses.withLock { $0[dashboard] = found }
                group.leave()
            }
        }
        group.notify(queue: .global()) {
            let known = statuses.withLock { $0 }
            let items = screens.compactMap { screen -> JSONValue? in
                guard let status = known[screen.dashboard]?[screen.sessionID] else { return nil }  // left meanwhile
                return .object([
                    JSONMember("id", .number(screen.id)),
                    JSONMember("dashboard", .string(screen.dashboard)),
                    JSONMember("playlist", .optional(screen.playlist.map(JSONValue.string))),
                    JSONMember("name", .optional(screen.name.map(JSONValue.string))),
                    JSONMember("address", .optional(screen.address.map(JSONValue.string))),
                    JSONMember("userAgent", .optional(screen.userAgent.map(JSONValue.string))),
                    JSONMember("node", .string(node)),
                    JSONMember("keyId", .optional(screen.keyID.map(JSONValue.string))),
                    JSONMember("connectedAt", .string(iso8601(screen.connectedAt))),
                    JSONMember("fps", .number(status.fps)),
                    JSONMember("paused", .bool(status.isPaused)),
                    JSONMember("framesSkipped", .number(status.framesSkipped)),
                    JSONMember("paintedFps", .optional(screen.paintedFPS.map { JSONValue.number(Self.rounded($0)) })),
                    JSONMember(
                        "paintMs", .optional(screen.paintMilliseconds.map { JSONValue.number(Self.rounded($0)) })),
                    JSONMember("scriptError", .optional(screen.scriptError.map(JSONValue.string))),
                    JSONMember("unreadable", .array(screen.unreadableTiles.map(JSONValue.string))),
                ])
            }
            completion(items)
        }
    }

    /// Commits `action` through the change log and answers with `response` once it is durable.
    func command(
        _ action: StoredScreenCommand.Action, _ respond: @escaping Respond,
        response: @escaping @Sendable (StoredScreenCommand) -> HTTPResponse
    ) {
        store.commandScreens(action) { result in
            switch result {
            case .success(let command): respond(response(command))
            case .failure(let error): respond(APIError.storeUnavailable(error).response)
            }
        }
    }

    private func screen(_ context: RequestContext) throws(APIError) -> (Int, ScreenRegistry.Screen) {
        let given = context.parameter("id")
        guard let id = Int(given), let screen = directory?.screens.screen(id) else {
            throw .notFound("unknown_screen", "no screen \(JSONText.quoted(given)) is connected")
        }
        return (id, screen)
    }

    /// The name `given` addresses: a connected screen's id (as `/api/v1/screens` lists it) stands for its name;
    /// anything else is a name (the screen may be on another node).
    static func screenName(_ given: String, directory: DashboardDirectory?) throws(APIError) -> String {
        if let id = Int(given), let screen = directory?.screens.screen(id) {
            guard let name = screen.name else {
                throw .invalidValue("screen: screen \(id) has no name; open it with ?name= to address it")
            }
            return name
        }
        guard ScreenRegistry.cleanName(given) == given else {
            throw .invalidValue("screen: \(JSONText.quoted(given)) is neither a connected screen's id nor a name")
        }
        return given
    }

    private func accepted(screen name: String, extra: [JSONMember]) -> HTTPResponse {
        let count = directory?.screens.count(named: name) ?? 0
        return JSONResponse.accepted(
            .object([JSONMember("screen", .string(name)), JSONMember("screens", .number(count))] + extra))
    }

    private func accepted(dashboard: String, extra: [JSONMember]) -> HTTPResponse {
        let count = directory?.screens.count(showing: dashboard) ?? 0
        return JSONResponse.accepted(
            .object([JSONMember("dashboard", .string(dashboard)), JSONMember("screens", .number(count))] + extra))
    }

    /// A screen's reported figure to one decimal place, as the list shows it.
    private static func rounded(_ value: Double) -> Double {
        (value * 10).rounded() / 10
    }
}
