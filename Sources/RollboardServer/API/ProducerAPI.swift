import RollboardAnimation
import Dispatch
public import Logging
public import RollboardNet
import Synchronization

/// The producer HTTP API (`/api/v1/…` and `/healthz`): value updates, wheel and carousel commands, reads.
/// See `docs/producer-api.md`.
///
/// Writes need `Authorization: Bearer TOKEN`. Reads of a dashboard that is not public, and of the values it shows,
/// need a viewer key that opens it or a producer or admin token (``ViewerAccess``). Every refusal is a JSON `{"error":…,"detail":…}` with the fitting
/// status; nothing is half-applied. A metric update is answered `202` only once the store has made it durable.
public final class ProducerAPI: Sendable {
    private let live: Mutex<RollboardConfiguration>
    /// The producer tokens in force.
    let tokens: [ProducerToken]
    private let viewerKeys: ViewerKeys?
    private let readerTokens: [[UInt8]]
    let store: any ChangeLog
    private let logger: Logger
    private let rateLimiter: RateLimiter?
    private let monotonicSeconds: @Sendable () -> Double
    private let counters = Mutex(ProducerAPIStatistics())

    /// - Parameters:
    ///   - tokens: the tokens in force (see `ProducerTokens.resolve`).
    ///   - viewerKeys: the viewer keys that open dashboards that are not public (`nil`: none).
    ///   - adminTokens: admin tokens, which read everything too.
    ///   - monotonicSeconds: the clock of the rate limiter (default: the system's monotonic clock).
    public init(
        configuration: RollboardConfiguration,
        tokens: [ProducerToken],
        store: any ChangeLog,
        logger: Logger,
        viewerKeys: ViewerKeys? = nil,
        adminTokens: [String] = [],
        monotonicSeconds: (@Sendable () -> Double)? = nil
    ) {
        self.live = Mutex(configuration)
        self.tokens = tokens
        self.viewerKeys = viewerKeys
        self.readerTokens = tokens.map { Array($0.token.utf8) } + adminTokens.map { Array($0.utf8) }
        self.store = store
        self.logger = logger
        let rate = configuration.server.limits.producerRequestsPerSecond
        self.rateLimiter = rate > 0 ? RateLimiter(rate: rate) : nil
        self.monotonicSeconds = monotonicSeconds ?? { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
    }

    /// The configuration in force: the one the server started with, or the latest reload's.
    public var configuration: RollboardConfiguration {
        live.withLock { $0 }
    }

    /// Takes a reloaded configuration (dashboards, playlists, what a value must fit, who may see what); tokens stay
    /// as they were. Every open screen is judged again by the new access rules, and those no longer admitted are
    /// closed with 1008.
    public func reconfigure(_ configuration: RollboardConfiguration) {
        live.withLock { $0 = configuration }
        if let viewerKeys {
            let closed = viewerKeys.screens.recheck(access)
            if closed > 0 {
                logger.notice("screens closed: the reloaded configuration no longer admits them", metadata: ["screens": "\(closed)"])
            }
        }
    }

    /// Who may read what under the configuration in force; the page and the WebSocket ask it too.
    var access: ViewerAccess {
        ViewerAccess(configuration: configuration, keys: viewerKeys, readerTokens: readerTokens)
    }

    /// Whether `path` belongs to this API (`/api/…`, `/healthz` or `/readyz`); other paths are for the page and assets.
    public static func handles(path: String) -> Bool {
        path == "/healthz" || path == "/readyz" || path == "/api" || path.hasPrefix("/api/")
    }

    /// Counters of answered requests.
    public var statistics: ProducerAPIStatistics {
        counters.withLock { $0 }
    }

    /// Answers `request`; `respond` is called exactly once, on any queue.
    public func handle(_ request: HTTPRequest, respond: @escaping @Sendable (HTTPResponse) -> Void) {
        let method = request.method
        let counted: @Sendable (HTTPResponse) -> Void = { response in
            self.counters.withLock { $0.count(method, response.status.code) }
            respond(response)
        }
        do {
            try route(request, respond: counted)
        } catch {
            // A 503 says the store or Redis is unavailable, which the store logs once; probes would flood the log.
            if error.status.code >= 500 && error.status.code != 503 {
                logger.error(
                    "producer request failed", metadata: ["path": "\(request.path)", "detail": "\(error.detail)"])
            }
            counted(error.response)
        }
    }

    // MARK: Routing

    private func route(_ request: HTTPRequest, respond: @escaping @Sendable (HTTPResponse) -> Void) throws(APIError) {
        let path = request.path
        let segments = path.split(separator: "/").map(String.init)
        let method = request.method
        let isRead = method == "GET" || method == "HEAD"

        func allow(_ allowed: String) throws(APIError) {
            let methods = allowed.split(separator: ",").map { $0.trimmingCharacters() }
            guard methods.contains(method) else { throw .methodNotAllowed(method, path: path, allow: allowed) }
        }

        switch segments {
        case ["healthz"]:
            try allow("GET, HEAD")
            respond(health())
        case ["readyz"]:
            try allow("GET, HEAD")
            respond(try readiness())
        case ["api", "v1", "metrics"]:
            try allow("GET, HEAD, POST")
            if isRead { return respond(listMetrics(access.credential(of: request))) }
            try postBatch(request, respond: respond)
        case let s where s.count == 4 && s[0...2] == ["api", "v1", "metrics"]:
            try allow("GET, HEAD, POST")
            if isRead {
                try requireKind(s[3], .metric)
                try requireAccess(toValueOf: s[3], request)
                return respond(getMetric(s[3]))
            }
            try postMetric(s[3], request, respond: respond)
        case let s where s.count == 4 && s[0...2] == ["api", "v1", "wheels"]:
            try allow("GET, HEAD, POST")
            if isRead {
                try requireKind(s[3], .wheel)
                try requireAccess(toValueOf: s[3], request)
                return respond(getWheel(s[3]))
            }
            try postWheel(s[3], request, respond: respond)
        case let s where s.count == 4 && s[0...2] == ["api", "v1", "carousels"]:
            try allow("POST")
            try postCarousel(s[3], request, respond: respond)
        case let s where s.count == 5 && s[0...2] == ["api", "v1", "carousels"] && s[4] == "slides":
            try allow("POST")
            try postSlides(s[3], request, respond: respond)
        case let s where s.count == 4 && s[0...2] == ["api", "v1", "texts"]:
            try allow("GET, HEAD, POST")
            if isRead {
                try requireKind(s[3], .text)
                try requireAccess(toValueOf: s[3], request)
                return respond(getText(s[3]))
            }
            try postText(s[3], request, respond: respond)
        case ["api", "v1", "dashboards"]:
            try allow("GET, HEAD")
            let credential = access.credential(of: request)
            let visible = access.visibleDashboards(credential)
            let playlists = access.visiblePlaylists(credential).map { playlist in
                JSONValue.object([
                    JSONMember("id", .string(playlist.id)), JSONMember("title", .string(playlist.title)),
                    JSONMember("entries", .array(playlist.entries.map { .string($0.dashboard) })),
                ])
            }
            respond(
                ok(.object([
                    JSONMember("dashboards", .array(visible.map(configuration.json))),
                    JSONMember("playlists", .array(playlists)),
                ])))
        case let s where s.count == 4 && s[0...2] == ["api", "v1", "dashboards"]:
            try allow("GET, HEAD")
            guard let dashboard = configuration.dashboard(s[3]) else {
                throw .notFound("unknown_dashboard", "no dashboard \(JSONText.quoted(s[3]))")
            }
            switch access.decide(dashboard, access.credential(of: request)) {
            case .granted: respond(ok(configuration.json(dashboard)))
            case .keyRequired: throw .viewerKeyRequired("dashboard \(JSONText.quoted(dashboard.id)) needs a viewer key")
            case .keyRefused: throw .viewerKeyRefused("the key is not valid for dashboard \(JSONText.quoted(dashboard.id))")
            }
        default:
            throw .notFound("not_found", "no such endpoint: \(path)")
        }
    }

    // MARK: Reads

    /// Liveness: the process answers. Whether it can take writes is `/readyz`'s question.
    private func health() -> HTTPResponse {
        ok(
            .object([
                JSONMember("status", .string("ok")),
                JSONMember("epoch", .string(store.epoch)),
                JSONMember("seq", .number(store.lastSeq)),
            ]))
    }

    /// Readiness: 200 while the store makes writes durable; 503 once it has failed, or while a write has waited for
    /// the disk longer than the commit timeout.
    private func readiness() throws(APIError) -> HTTPResponse {
        if let failure = store.failure { throw .storeUnavailable(failure) }
        let timeout = configuration.server.limits.commitTimeout
        if let waiting = store.unconfirmedSeconds, waiting > timeout {
            throw .storeStalled(seconds: waiting)
        }
        return ok(
            .object([
                JSONMember("status", .string("ready")),
                JSONMember("epoch", .string(store.epoch)),
                JSONMember("seq", .number(store.lastSeq)),
            ]))
    }

    /// Every value `credential` may read: those shown on a dashboard it may see.
    private func listMetrics(_ credential: ViewerAccess.Credential) -> HTTPResponse {
        let catalog = configuration.catalog
        let visible = { (id: String) in self.access.decide(valueOf: id, credential).isGranted }
        let metrics = store.all().filter { catalog.kind(of: $0.id) == .metric && visible($0.id) }.map(Self.json)
        let wheels = store.allWheels().filter { catalog.kind(of: $0.id) == .wheel && visible($0.id) }.map(Self.json)
        return ok(
            .object([
                JSONMember("epoch", .string(store.epoch)),
                JSONMember("seq", .number(store.lastSeq)),
                JSONMember("metrics", .array(metrics)),
                JSONMember("wheels", .array(wheels)),
            ]))
    }

    private func getMetric(_ id: String) -> HTTPResponse {
        let history = store.history(id).map { entry in
            JSONValue.object([
                JSONMember("value", .number(entry.value)),
                JSONMember("seq", .number(entry.seq)),
                JSONMember("updatedAt", .string(iso8601(entry.updatedAt))),
            ])
        }
        guard let metric = store.current(id) else {
            return ok(
                .object([
                    JSONMember("id", .string(id)), JSONMember("value", .null), JSONMember("seq", .null),
                    JSONMember("updatedAt", .null), JSONMember("history", .array([])),
                ]))
        }
        guard case .object(var members) = Self.json(metric) else { preconditionFailure("metric JSON is an object") }
        members.append(JSONMember("history", .array(history)))
        return ok(.object(members))
    }

    private func getWheel(_ id: String) -> HTTPResponse {
        guard let wheel = store.wheel(id) else {
            return ok(
                .object([
                    JSONMember("id", .string(id)), JSONMember("seq", .null), JSONMember("updatedAt", .null),
                ]))
        }
        return ok(Self.json(wheel))
    }

    static func json(_ metric: StoredMetric) -> JSONValue {
        .object([
            JSONMember("id", .string(metric.id)),
            JSONMember("value", .number(metric.value)),
            JSONMember("seq", .number(metric.seq)),
            JSONMember("updatedAt", .string(iso8601(metric.updatedAt))),
        ])
    }

    static func json(_ wheel: StoredWheel) -> JSONValue {
        let target: JSONMember =
            switch wheel.target {
            case .progress(let progress): JSONMember("progress", .number(progress))
            case .index(let index): JSONMember("index", .number(index))
            }
        return .object([
            JSONMember("id", .string(wheel.id)), target,
            JSONMember("seq", .number(wheel.seq)),
            JSONMember("updatedAt", .string(iso8601(wheel.updatedAt))),
        ])
    }

    // MARK: Writes

    private func postMetric(
        _ id: String,
        _ request: HTTPRequest,
        respond: @escaping @Sendable (HTTPResponse) -> Void
    ) throws(APIError) {
        try authorizeWrite(id, .metric, request)
        let body = try parseBody(request)
        let update = try metricUpdate(body, id: id, field: "")
        commit([update], respond: respond) { stored in
            .object([
                JSONMember("id", .string(stored[0].id)),
                JSONMember("value", .number(stored[0].value)),
                JSONMember("seq", .number(stored[0].seq)),
            ])
        }
    }

    private func postBatch(_ request: HTTPRequest, respond: @escaping @Sendable (HTTPResponse) -> Void) throws(APIError)
    {
        let token = try authenticate(request)
        let body = try parseBody(request)
        try Self.rejectUnknownFields(body, allowed: ["updates"], prefix: "")
        guard let list = body["updates"] else { throw .missingField("updates") }
        guard case .array(let items) = list else { throw .wrongType("updates", expected: "an array", got: list) }
        guard !items.isEmpty else { throw .invalidValue("updates: must not be empty") }
        let limit = configuration.server.limits.maxBatchUpdates
        guard items.count <= limit else {
            throw .invalidValue("updates: at most \(limit) updates per request, got \(items.count)")
        }
        var updates: [MetricUpdate] = []
        for (index, item) in items.enumerated() {
            let field = "updates[\(index)]"
            guard case .object = item else { throw .wrongType(field, expected: "an object", got: item) }
            guard let idValue = item["id"] else { throw .missingField(field + ".id") }
            guard case .string(let id) = idValue else {
                throw .wrongType(field + ".id", expected: "a string", got: idValue)
            }
            switch configuration.catalog.kind(of: id) {
            case .metric: break
            case nil: throw .invalidValue("\(field).id: unknown metric \(JSONText.quoted(id)) (no tile shows it)")
            case let kind?: throw .invalidValue("\(field).id: \(JSONText.quoted(id)) is a \(kind.rawValue), not a metric")
            }
            guard token.allows(id) else { throw .forbidden("\(field).id: this token may not write \(JSONText.quoted(id))") }
            updates.append(try metricUpdate(item, id: id, field: field + "."))
        }
        commit(updates, respond: respond) { stored in
            .object([
                JSONMember("seq", .number(stored[stored.count - 1].seq)),
                JSONMember(
                    "updates",
                    .array(
                        stored.map { metric in
                            .object([
                                JSONMember("id", .string(metric.id)),
                                JSONMember("value", .number(metric.value)),
                                JSONMember("seq", .number(metric.seq)),
                            ])
                        })),
            ])
        }
    }

    private func commit(
        _ updates: [MetricUpdate],
        respond: @escaping @Sendable (HTTPResponse) -> Void,
        body: @escaping @Sendable ([StoredMetric]) -> JSONValue
    ) {
        let respond = answeredWithin(configuration.server.limits.commitTimeout, respond)
        store.append(updates) { result in
            switch result {
            case .success(let stored): respond(Self.accepted(body(stored)))
            case .failure(let error): respond(APIError.storeUnavailable(error).response)
            }
        }
    }

    private func postWheel(
        _ id: String,
        _ request: HTTPRequest,
        respond: @escaping @Sendable (HTTPResponse) -> Void
    ) throws(APIError) {
        try authorizeWrite(id, .wheel, request)
        var body = try parseBody(request)
        try Self.rejectUnknownFields(body, allowed: ["progress", "index", "label"], prefix: "")
        let target: WheelTarget
        let given = ["progress", "index", "label"].filter { body[$0] != nil }
        guard given.count <= 1 else { throw .badRequest("give one of progress, index or label, not \(given.joined(separator: " and "))") }
        if let label = body["label"] {
            let contents = configuration.catalog.wheelContents(id) ?? []
            guard case .string(let name) = label else { throw .wrongType("label", expected: "a string", got: label) }
            guard let index = contents.firstIndex(of: name) else {
                throw .invalidValue(
                    "label: \(JSONText.quoted(name)) is not one of the wheel's labels (\(contents.map(JSONText.quoted).joined(separator: ", ")))")
            }
            body = .object([JSONMember("index", .number(JSONNumber(literal: String(index))))])
        }
        switch (body["progress"], body["index"]) {
        case (let progress?, nil):
            guard case .number(let number) = progress else {
                throw .wrongType("progress", expected: "a number", got: progress)
            }
            let value = number.double
            guard value.isFinite, (0...1).contains(value) else {
                throw .invalidValue("progress: must be between 0 and 1, got \(number.literal)")
            }
            target = .progress(value)
        case (nil, let index?):
            let positions = configuration.catalog.wheelPositions(id) ?? 0
            guard case .number(let number) = index, let value = number.integer else {
                throw .wrongType("index", expected: "an integer", got: index)
            }
            guard (0..<positions).contains(value) else {
                throw .invalidValue(
                    "index: must be between 0 and \(positions - 1) (the wheel has \(positions) labels), got \(value)"
                )
            }
            target = .index(value)
        case (.some, .some):
            throw .badRequest("give one of progress, index or label")
        case (nil, nil):
            throw .missingField("progress, index or label")
        }
        let respond = answeredWithin(configuration.server.limits.commitTimeout, respond)
        store.setWheel(id, target: target) { result in
            switch result {
            case .success(let wheel):
                guard case .object(var members) = Self.json(wheel) else {
                    preconditionFailure("wheel JSON is an object")
                }
                members.removeLast()
                respond(Self.accepted(.object(members)))
            case .failure(let error):
                respond(APIError.storeUnavailable(error).response)
            }
        }
    }

    private func postCarousel(
        _ id: String, _ request: HTTPRequest, respond: @escaping @Sendable (HTTPResponse) -> Void
    ) throws(APIError) {
        try authorizeWrite(id, .carousel, request)
        let body = try parseBody(request)
        try Self.rejectUnknownFields(body, allowed: ["action", "page"], prefix: "")
        guard let actionValue = body["action"] else { throw .missingField("action") }
        guard case .string(let actionName) = actionValue else {
            throw .wrongType("action", expected: "a string", got: actionValue)
        }
        let pageValue = body["page"]
        let action: CarouselCommand.Action
        switch actionName {
        case "next", "prev":
            guard pageValue == nil else { throw .badRequest("page: only allowed with action \"goto\"") }
            action = actionName == "next" ? .next : .previous
        case "goto":
            guard let pageValue else { throw .missingField("page") }
            guard case .number(let number) = pageValue, let page = number.integer else {
                throw .wrongType("page", expected: "an integer", got: pageValue)
            }
            let pages = carouselPages(id)
            guard (0..<pages).contains(page) else {
                throw .invalidValue(
                    "page: must be between 0 and \(pages - 1) (the carousel has \(pages) slides), got \(page)")
            }
            action = .goto(page: page)
        default:
            throw .invalidValue("action: must be \"next\", \"prev\" or \"goto\", got \(JSONText.quoted(actionName))")
        }
        let respond = answeredWithin(configuration.server.limits.commitTimeout, respond)
        store.commandCarousel(id, action: action) { result in
            switch result {
            case .success(let command):
                var members = [JSONMember("id", .string(id)), JSONMember("action", .string(actionName))]
                if case .goto(let page) = action { members.append(JSONMember("page", .number(page))) }
                members.append(JSONMember("seq", .number(command.seq)))
                respond(Self.accepted(.object(members)))
            case .failure(let error):
                respond(APIError.storeUnavailable(error).response)
            }
        }
    }

    // MARK: Checks

    /// The token of the request; throws 401 for none or an unknown one, 429 over the rate limit.
    func authenticate(_ request: HTTPRequest) throws(APIError) -> ProducerToken {
        guard let bearer = request.bearerToken else { throw .missingToken }
        let presented = Array(bearer.utf8)
        var match: ProducerToken?
        for token in tokens where ConstantTime.equals(Array(token.token.utf8), presented) {
            match = token
        }
        guard let match else { throw .invalidToken }
        if let rateLimiter, let wait = rateLimiter.take(match.token, now: monotonicSeconds()) {
            throw .rateLimited(retryAfter: wait)
        }
        return match
    }

    /// Throws unless `request` may write `id`, which must be of `kind`: 401 without a known token, 429 over the rate
    /// limit, 404 for an id of another kind, 403 for a token restricted to other ids.
    func authorizeWrite(_ id: String, _ kind: MetricCatalog.Kind, _ request: HTTPRequest) throws(APIError) {
        let token = try authenticate(request)
        try requireKind(id, kind)
        guard token.allows(id) else { throw .forbidden("this token may not write \(JSONText.quoted(id))") }
    }

    /// Throws 401 or 403 unless `request` may read `id`, a value shown on some dashboard.
    func requireAccess(toValueOf id: String, _ request: HTTPRequest) throws(APIError) {
        switch access.decide(valueOf: id, access.credential(of: request)) {
        case .granted: return
        case .keyRequired:
            throw .viewerKeyRequired(
                "\(JSONText.quoted(id)) is shown only on dashboards that need a viewer key: add ?key=KEY or "
                    + "Authorization: Bearer KEY")
        case .keyRefused:
            throw .viewerKeyRefused("the key is not valid for any dashboard that shows \(JSONText.quoted(id))")
        }
    }

    func requireKind(_ id: String, _ kind: MetricCatalog.Kind) throws(APIError) {
        let actual = configuration.catalog.kind(of: id)
        if actual == kind { return }
        let noun = kind == .metric ? "metric" : kind.rawValue
        guard let actual else {
            throw .notFound("unknown_\(noun)", "unknown \(noun) \(JSONText.quoted(id)) (no tile shows it)")
        }
        let route = actual == .metric ? "metrics" : actual.rawValue + "s"
        throw .notFound("unknown_\(noun)", "\(JSONText.quoted(id)) is a \(actual.rawValue); use /api/v1/\(route)/\(id)")
    }

    func parseBody(_ request: HTTPRequest) throws(APIError) -> JSONValue {
        try Self.parseBody(request, limit: configuration.server.limits.maxBodyBytes)
    }

    /// The body as a JSON object, after the content type and size checks.
    static func parseBody(_ request: HTTPRequest, limit: Int) throws(APIError) -> JSONValue {
        let contentType = request.headers["Content-Type"]
        let mediaType = contentType?.split(separator: ";", maxSplits: 1).first?.trimmingCharacters().lowercased()
        guard mediaType == "application/json" else { throw .unsupportedMediaType(contentType) }
        guard request.body.count <= limit else { throw .bodyTooLarge(request.body.count, limit: limit) }
        let value: JSONValue
        do {
            value = try JSONParser.parse(request.body)
        } catch {
            throw .malformedJSON("invalid JSON: \(error)")
        }
        guard case .object = value else {
            throw .malformedJSON("the body must be a JSON object, got \(value.kindDescription)")
        }
        return value
    }

    static func rejectUnknownFields(_ object: JSONValue, allowed: [String], prefix: String) throws(APIError) {
        guard case .object(let members) = object else { return }
        if let unknown = members.first(where: { !allowed.contains($0.key) }) {
            throw .unknownField(prefix + unknown.key, allowed: allowed)
        }
    }

    /// Reads `value`, `interval` and `animated` from `object` for metric `id`; `field` prefixes error fields.
    private func metricUpdate(_ object: JSONValue, id: String, field: String) throws(APIError) -> MetricUpdate {
        let allowed = (field.isEmpty ? [] : ["id"]) + ["value", "interval", "animated", "policy"]
        try Self.rejectUnknownFields(object, allowed: allowed, prefix: field)
        guard let valueJSON = object["value"] else { throw .missingField(field + "value") }
        guard case .number(let number) = valueJSON else {
            throw .wrongType(field + "value", expected: "a number", got: valueJSON)
        }
        let value = number.double
        guard value.isFinite else {
            throw .invalidValue("\(field)value: \(number.literal) is not a finite number")
        }
        if let problem = configuration.catalog.problem(showing: value, as: id, literal: number.literal) {
            throw .invalidValue("\(field)value: \(problem)")
        }
        var interval: Double?
        switch object["interval"] {
        case nil, .null?: break
        case .number(let seconds)?:
            let parsed = seconds.double
            guard parsed.isFinite, parsed > 0, parsed <= 3_600 else {
                throw .invalidValue(
                    "\(field)interval: must be above 0 and at most 3600 seconds, got \(seconds.literal)")
            }
            interval = parsed
        case let other?:
            throw .wrongType(field + "interval", expected: "a number of seconds", got: other)
        }
        var animated = true
        switch object["animated"] {
        case nil, .null?: break
        case .bool(let flag)?: animated = flag
        case let other?: throw .wrongType(field + "animated", expected: "true or false", got: other)
        }
        var policy: QueuePolicy?
        switch object["policy"] {
        case nil, .null?: break
        case .string(let name)?:
            guard let named = QueuePolicy(rawValue: name) else {
                throw .invalidValue("\(field)policy: must be one of fifo, latest, retarget, got \"\(name)\"")
            }
            policy = named
        case let other?: throw .wrongType(field + "policy", expected: "fifo, latest or retarget", got: other)
        }
        return MetricUpdate(id: id, value: value, interval: interval, animated: animated, policy: policy)
    }

    // MARK: Responses

    /// `respond`, called at most once: with the store's answer, or with 503 `commit_timeout` when the store has not
    /// answered within `seconds` (a sync stuck on the disk), whichever comes first.
    func answeredWithin(
        _ seconds: Double,
        _ respond: @escaping @Sendable (HTTPResponse) -> Void
    ) -> @Sendable (HTTPResponse) -> Void {
        let answered = Atomic<Bool>(false)
        let once: @Sendable (HTTPResponse) -> Void = { response in
            guard !answered.exchange(true, ordering: .acquiringAndReleasing) else { return }
            respond(response)
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
            once(APIError.commitTimeout(seconds: seconds).response)
        }
        return once
    }

    private func ok(_ body: JSONValue) -> HTTPResponse {
        HTTPResponse(status: .ok, contentType: "application/json", text: body.serialized)
    }

    static func accepted(_ body: JSONValue) -> HTTPResponse {
        HTTPResponse(status: .accepted, contentType: "application/json", text: body.serialized)
    }
}

extension StringProtocol {
    fileprivate func trimmingCharacters() -> String {
        String(self).trimmingWhitespaceAndNewlines()
    }
}
