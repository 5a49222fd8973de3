import Dispatch
public import Logging
public import RollboardNet
import Synchronization

/// The admin API (`/api/v1/admin/…` and `/api/v1/screens`): viewer keys are created, listed and revoked, screens are
/// listed, reloaded, shown an announcement or asked to identify themselves, all without a restart.
/// See `docs/producer-api.md`.
///
/// Every request needs `Authorization: Bearer <admin token>`; producer tokens are refused. Secrets are shown once, in
/// the answer that creates them, and never logged.
public final class AdminAPI: Sendable {
    private let api: ProducerAPI
    private let tokens: [[UInt8]]
    private let producerTokens: [[UInt8]]
    private let keys: ViewerKeys
    private let directory: DashboardDirectory?
    private let reloader: ConfigurationReloader?
    private let logger: Logger
    private let now: @Sendable () -> Double

    /// - Parameters:
    ///   - tokens: the admin tokens in force (see ``AdminTokens/resolve(configured:environment:dataDirectory:)``).
    ///   - api: the producer API, whose configuration (the latest reload's) and tokens this API goes by; a producer
    ///     token used here is answered 403 rather than 401.
    ///   - directory: the dashboards' hubs and their screens (`nil`: no screens to list or control).
    ///   - reloader: reloads the configuration from its folder (`nil`: `POST /api/v1/admin/reload` answers 404).
    ///   - now: the wall clock, in seconds since 1970 (a key's `createdAt`).
    public init(
        api: ProducerAPI, tokens: [String], keys: ViewerKeys, directory: DashboardDirectory? = nil,
        reloader: ConfigurationReloader? = nil, logger: Logger, now: (@Sendable () -> Double)? = nil
    ) {
        self.api = api
        self.directory = directory
        self.reloader = reloader
        self.tokens = tokens.map { Array($0.utf8) }
        self.producerTokens = api.tokens.map { Array($0.token.utf8) }
        self.keys = keys
        self.logger = logger
        self.now = now ?? { wallClock() }
    }

    /// Whether `path` belongs to this API.
    public static func handles(path: String) -> Bool {
        path == "/api/v1/admin" || path.hasPrefix("/api/v1/admin/") || path == "/api/v1/screens"
    }

    /// Answers `request`; `respond` is called exactly once, on any queue.
    public func handle(_ request: HTTPRequest, respond: @escaping @Sendable (HTTPResponse) -> Void) {
        do {
            try route(request, respond: respond)
        } catch {
            if error.status.code >= 500 {
                logger.error("admin request failed", metadata: ["path": "\(request.path)", "detail": "\(error.detail)"])
            }
            respond(error.response)
        }
    }

    /// The configuration in force.
    private var configuration: RollboardConfiguration { api.configuration }

    private func route(_ request: HTTPRequest, respond: @escaping @Sendable (HTTPResponse) -> Void) throws(APIError) {
        let path = request.path
        let method = request.method
        func allow(_ allowed: String) throws(APIError) {
            guard allowed.split(separator: ",").contains(where: { String($0).trimmingWhitespaceAndNewlines() == method }) else {
                throw .methodNotAllowed(method, path: path, allow: allowed)
            }
        }
        try authenticate(request)
        switch path.split(separator: "/").map(String.init) {
        case ["api", "v1", "admin", "keys"]:
            try allow("GET, HEAD, POST")
            respond(method == "POST" ? try create(request) : list())
        case let s where s.count == 5 && s[0...3] == ["api", "v1", "admin", "keys"]:
            try allow("DELETE")
            respond(try revoke(s[4]))
        case ["api", "v1", "screens"]:
            try allow("GET, HEAD")
            listScreens(respond: respond)
        case let s where s.count == 6 && s[0...3] == ["api", "v1", "admin", "dashboards"] && s[5] == "reload":
            try allow("POST")
            _ = try hub(s[4])
            commandScreens(.reloadDashboard(s[4]), respond: respond) { [self] command in
                logger.notice("screens reloaded", metadata: ["dashboard": "\(s[4])"])
                return accepted(dashboard: s[4], extra: [JSONMember("seq", .number(command.seq))])
            }
        case let s where s.count == 6 && s[0...3] == ["api", "v1", "admin", "dashboards"] && s[5] == "announce":
            try allow("POST")
            _ = try hub(s[4])
            let (text, seconds) = try announcement(request)
            let action = StoredScreenCommand.Action.announce(dashboard: s[4], text: text, seconds: seconds)
            commandScreens(action, respond: respond) { [self] command in
                logger.notice("announcement shown", metadata: ["dashboard": "\(s[4])", "seconds": "\(seconds)"])
                let extra = [JSONMember("seconds", .number(seconds)), JSONMember("seq", .number(command.seq))]
                return accepted(dashboard: s[4], extra: extra)
            }
        case ["api", "v1", "admin", "reload"]:
            try allow("POST")
            guard let reloader else { throw .notFound("not_found", "this server was not started from a config folder") }
            DispatchQueue.global().async { respond(reloader.reload().response) }
        case ["api", "v1", "admin", "playlists"]:
            try allow("GET, HEAD")
            listPlaylists(respond: respond)
        case let s where s.count == 6 && s[0...3] == ["api", "v1", "admin", "playlists"]:
            try allow("POST")
            guard let playlist = directory?.playlist(s[4]) else {
                throw .notFound("unknown_playlist", "no playlist \(JSONText.quoted(s[4])) is configured")
            }
            let action: StoredPlaylistCommand.Action
            switch s[5] {
            case "hold": action = .hold
            case "resume": action = .resume
            case "show": action = .show(entry: try entry(request, of: playlist.configuration))
            case "reload":
                // Answered with the playlist's status once committed; every node's screens reload as it arrives.
                return api.store.commandScreens(.reloadPlaylist(s[4])) { [self] result in
                    switch result {
                    case .success:
                        logger.notice("playlist controlled", metadata: ["playlist": "\(s[4])", "action": "reload"])
                        playlistStatus(playlist, status: .accepted, respond: respond)
                    case .failure(let error):
                        respond(APIError.storeUnavailable(error).response)
                    }
                }
            default: throw .notFound("not_found", "no such endpoint: \(path) (hold, resume, show or reload)")
            }
            // Through the change log, so every node's screens follow; answered once this node has applied it.
            api.store.commandPlaylist(s[4], action: action) { [self] result in
                switch result {
                case .success(let command):
                    logger.notice("playlist controlled", metadata: ["playlist": "\(s[4])", "action": "\(s[5])"])
                    playlist.whenApplied(command.seq) { [self] _ in
                        playlistStatus(playlist, status: .accepted, respond: respond)
                    }
                case .failure(let error):
                    respond(APIError.storeUnavailable(error).response)
                }
            }
        case let s where s.count == 6 && s[0...3] == ["api", "v1", "admin", "screens"] && s[5] == "identify":
            try allow("POST")
            guard let id = Int(s[4]), let screen = directory?.screens.screen(id) else {
                throw .notFound("unknown_screen", "no screen \(JSONText.quoted(s[4])) is connected")
            }
            let seconds = try identifySeconds(request)
            screen.hub.identify(screen.sessionID, name: screen.name ?? "Screen \(id)", seconds: seconds)
            let body = JSONValue.object([
                JSONMember("screen", .number(id)), JSONMember("name", .optional(screen.name.map(JSONValue.string))),
                JSONMember("seconds", .number(seconds)),
            ])
            respond(HTTPResponse(status: .accepted, contentType: "application/json", text: body.serialized))
        default:
            throw .notFound("not_found", "no such endpoint: \(path)")
        }
    }

    // MARK: Screens

    /// Commits `action` through the change log, so the screens on every node follow it, and answers with `response`
    /// once it is durable (503 when the change log refuses it).
    private func commandScreens(
        _ action: StoredScreenCommand.Action, respond: @escaping @Sendable (HTTPResponse) -> Void,
        response: @escaping @Sendable (StoredScreenCommand) -> HTTPResponse
    ) {
        api.store.commandScreens(action) { result in
            switch result {
            case .success(let command): respond(response(command))
            case .failure(let error): respond(APIError.storeUnavailable(error).response)
            }
        }
    }

    /// The hub of dashboard `id`, or 404.
    private func hub(_ id: String) throws(APIError) -> DashboardHub {
        guard let hub = directory?.hub(id) else {
            throw .notFound("unknown_dashboard", "no dashboard \(JSONText.quoted(id)) is configured")
        }
        return hub
    }

    private func accepted(dashboard: String, extra: [JSONMember]) -> HTTPResponse {
        let count = directory?.screens.all.filter { $0.dashboard == dashboard }.count ?? 0
        let body = JSONValue.object(
            [JSONMember("dashboard", .string(dashboard)), JSONMember("screens", .number(count))] + extra)
        return HTTPResponse(status: .accepted, contentType: "application/json", text: body.serialized)
    }

    /// `{"text": …, "seconds": …}`: 1 to 500 characters, shown 0 (take it down) to 86,400 seconds (default 30).
    private func announcement(_ request: HTTPRequest) throws(APIError) -> (String, Double) {
        let body = try ProducerAPI.parseBody(request, limit: configuration.server.limits.maxBodyBytes)
        try ProducerAPI.rejectUnknownFields(body, allowed: ["text", "seconds"], prefix: "")
        guard let textValue = body["text"] else { throw .missingField("text") }
        guard case .string(let text) = textValue else { throw .wrongType("text", expected: "a string", got: textValue) }
        guard (1...500).contains(text.count) else { throw .invalidValue("text: must be 1 to 500 characters") }
        return (text, try seconds(body, default: 30, range: 0...86_400))
    }

    /// The optional `{"seconds": …}` of an identify request: 1 to 60, default 5.
    private func identifySeconds(_ request: HTTPRequest) throws(APIError) -> Double {
        guard !request.body.isEmpty else { return 5 }
        let body = try ProducerAPI.parseBody(request, limit: configuration.server.limits.maxBodyBytes)
        try ProducerAPI.rejectUnknownFields(body, allowed: ["seconds"], prefix: "")
        return try seconds(body, default: 5, range: 1...60)
    }

    private func seconds(_ body: JSONValue, default value: Double, range: ClosedRange<Double>) throws(APIError)
        -> Double
    {
        switch body["seconds"] {
        case nil, .null?: return value
        case .number(let number)?:
            guard number.double.isFinite, range.contains(number.double) else {
                throw .invalidValue(
                    "seconds: must be from \(formatNumber(range.lowerBound)) to \(formatNumber(range.upperBound)), "
                        + "got \(number.literal)")
            }
            return number.double
        case let other?:
            throw .wrongType("seconds", expected: "a number", got: other)
        }
    }

    // MARK: Playlists

    /// `{"entry": K}`: an index of the playlist's entries.
    private func entry(_ request: HTTPRequest, of playlist: PlaylistConfiguration) throws(APIError) -> Int {
        let body = try ProducerAPI.parseBody(request, limit: configuration.server.limits.maxBodyBytes)
        try ProducerAPI.rejectUnknownFields(body, allowed: ["entry"], prefix: "")
        guard let value = body["entry"] else { throw .missingField("entry") }
        guard case .number(let number) = value, let index = number.integer else {
            throw .wrongType("entry", expected: "an integer", got: value)
        }
        guard playlist.entries.indices.contains(index) else {
            throw .invalidValue(
                "entry: must be from 0 to \(playlist.entries.count - 1) (the playlist has \(playlist.entries.count) "
                    + "entries), got \(index)")
        }
        return index
    }

    private func playlistJSON(_ playlist: PlaylistConfiguration, entry: Int, held: Bool, screens: Int) -> JSONValue {
        .object([
            JSONMember("id", .string(playlist.id)),
            JSONMember("title", .string(playlist.title)),
            JSONMember(
                "entries",
                .array(
                    playlist.entries.map {
                        .object([JSONMember("dashboard", .string($0.dashboard)), JSONMember("seconds", .number($0.seconds))])
                    })),
            JSONMember("current", .number(entry)),
            JSONMember("held", .bool(held)),
            JSONMember("screens", .number(screens)),
        ])
    }

    /// The playlist's state once its queue has carried out what came before.
    private func playlistStatus(
        _ playlist: PlaylistHub, status: HTTPStatus, respond: @escaping @Sendable (HTTPResponse) -> Void
    ) {
        playlist.status { [self] entry, held, screens in
            let body = playlistJSON(playlist.configuration, entry: entry, held: held, screens: screens)
            respond(HTTPResponse(status: status, contentType: "application/json", text: body.serialized))
        }
    }

    /// `{"playlists":[…]}`: every playlist with the entry it shows, whether it is held, and its screens.
    private func listPlaylists(respond: @escaping @Sendable (HTTPResponse) -> Void) {
        let hubs = configuration.playlists.compactMap { directory?.playlist($0.id) }
        let found = Mutex<[String: (entry: Int, held: Bool, screens: Int)]>([:])
        let group = DispatchGroup()
        for hub in hubs {
            group.enter()
            hub.status { entry, held, screens in
                found.withLock { $0[hub.configuration.id] = (entry, held, screens) }
                group.leave()
            }
        }
        group.notify(queue: .global()) { [self] in
            let all = found.withLock { $0 }
            let items = hubs.compactMap { hub in
                all[hub.configuration.id].map {
                    playlistJSON(hub.configuration, entry: $0.entry, held: $0.held, screens: $0.screens)
                }
            }
            let body = JSONValue.object([JSONMember("playlists", .array(items))])
            respond(HTTPResponse(status: .ok, contentType: "application/json", text: body.serialized))
        }
    }

    /// `{"screens":[…]}`: every connected screen with what its hub knows of it (frame rate, pause, skipped frames) and
    /// what it reported itself (frames painted per second, paint time, the script error that kept it from starting).
    private func listScreens(respond: @escaping @Sendable (HTTPResponse) -> Void) {
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
                    JSONMember("connectedAt", .string(iso8601(screen.connectedAt))),
                    JSONMember("fps", .number(status.fps)),
                    JSONMember("paused", .bool(status.isPaused)),
                    JSONMember("framesSkipped", .number(status.framesSkipped)),
                    JSONMember("paintedFps", .optional(screen.paintedFPS.map { JSONValue.number(Self.rounded($0)) })),
                    JSONMember("paintMs", .optional(screen.paintMilliseconds.map { JSONValue.number(Self.rounded($0)) })),
                    JSONMember("scriptError", .optional(screen.scriptError.map(JSONValue.string))),
                ])
            }
            let body = JSONValue.object([JSONMember("screens", .array(items))])
            respond(HTTPResponse(status: .ok, contentType: "application/json", text: body.serialized))
        }
    }

    /// A screen's reported figure to one decimal place, as the list shows it.
    private static func rounded(_ value: Double) -> Double {
        (value * 10).rounded() / 10
    }

    private func authenticate(_ request: HTTPRequest) throws(APIError) {
        guard let token = request.bearerToken else { throw .missingAdminToken }
        let presented = Array(token.utf8)
        var isAdmin = false
        var isProducer = false
        for token in tokens where ConstantTime.equals(token, presented) { isAdmin = true }
        for token in producerTokens where ConstantTime.equals(token, presented) { isProducer = true }
        if isAdmin { return }
        if isProducer { throw .forbidden("a producer token cannot manage viewer keys; use an admin token") }
        throw .invalidAdminToken
    }

    private func list() -> HTTPResponse {
        let body = JSONValue.object([JSONMember("keys", .array(keys.all.map { json($0, secret: nil) }))])
        return HTTPResponse(status: .ok, contentType: "application/json", text: body.serialized)
    }

    private func create(_ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        let body = try ProducerAPI.parseBody(request, limit: configuration.server.limits.maxBodyBytes)
        try ProducerAPI.rejectUnknownFields(body, allowed: ["name", "dashboards"], prefix: "")
        guard let nameValue = body["name"] else { throw .missingField("name") }
        guard case .string(let name) = nameValue else { throw .wrongType("name", expected: "a string", got: nameValue) }
        guard (1...100).contains(name.count) else { throw .invalidValue("name: must be 1 to 100 characters") }
        var dashboards: [String]?
        switch body["dashboards"] {
        case nil, .null?: break
        case .array(let items)?:
            guard !items.isEmpty else {
                throw .invalidValue("dashboards: must not be empty (leave it out for every dashboard)")
            }
            var ids: [String] = []
            for (index, item) in items.enumerated() {
                guard case .string(let id) = item else {
                    throw .wrongType("dashboards[\(index)]", expected: "a string", got: item)
                }
                guard configuration.dashboard(id) != nil else {
                    throw .invalidValue("dashboards[\(index)]: no dashboard \(JSONText.quoted(id)) is configured")
                }
                if !ids.contains(id) { ids.append(id) }
            }
            dashboards = ids
        case let other?:
            throw .wrongType("dashboards", expected: "an array of dashboard ids", got: other)
        }
        let created: (key: ViewerKey, secret: String)
        do {
            created = try keys.create(name: name, dashboards: dashboards, now: now())
        } catch {
            throw APIError(status: .serviceUnavailable, code: "keys_unavailable", detail: error.description)
        }
        logger.notice(
            "viewer key created",
            metadata: ["key": "\(created.key.id)", "name": "\(name)", "dashboards": "\(dashboards ?? ["*"])"])
        let body201 = json(created.key, secret: created.secret)
        var response = HTTPResponse(status: .created, contentType: "application/json", text: body201.serialized)
        response.headers.add(name: "Cache-Control", value: "no-store")
        return response
    }

    private func revoke(_ id: String) throws(APIError) -> HTTPResponse {
        let revoked: (key: ViewerKey, closedScreens: Int)?
        do {
            revoked = try keys.revoke(id)
        } catch {
            throw APIError(status: .serviceUnavailable, code: "keys_unavailable", detail: error.description)
        }
        guard let revoked else { throw .notFound("unknown_key", "no viewer key \(JSONText.quoted(id))") }
        logger.notice(
            "viewer key revoked", metadata: ["key": "\(id)", "closedScreens": "\(revoked.closedScreens)"])
        let body = JSONValue.object([
            JSONMember("id", .string(id)),
            JSONMember("revoked", .bool(true)),
            JSONMember("closedScreens", .number(revoked.closedScreens)),
        ])
        return HTTPResponse(status: .ok, contentType: "application/json", text: body.serialized)
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
