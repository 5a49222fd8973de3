import Foundation
public import Logging
public import RollboardNet

/// The admin API (`/api/v1/admin/…`): viewer keys are created, listed and revoked here, without a restart.
/// See `docs/producer-api.md`.
///
/// Every request needs `Authorization: Bearer <admin token>`; producer tokens are refused. Secrets are shown once, in
/// the answer that creates them, and never logged.
public final class AdminAPI: Sendable {
    private let configuration: RollboardConfiguration
    private let tokens: [[UInt8]]
    private let producerTokens: [[UInt8]]
    private let keys: ViewerKeys
    private let logger: Logger
    private let now: @Sendable () -> Double

    /// - Parameters:
    ///   - tokens: the admin tokens in force (see ``AdminTokens/resolve(configured:environment:dataDirectory:)``).
    ///   - producerTokens: recognised only to answer 403 rather than 401 when one is used here.
    ///   - now: the wall clock, in seconds since 1970 (a key's `createdAt`).
    public init(
        configuration: RollboardConfiguration, tokens: [String], producerTokens: [ProducerToken] = [],
        keys: ViewerKeys, logger: Logger, now: (@Sendable () -> Double)? = nil
    ) {
        self.configuration = configuration
        self.tokens = tokens.map { Array($0.utf8) }
        self.producerTokens = producerTokens.map { Array($0.token.utf8) }
        self.keys = keys
        self.logger = logger
        self.now = now ?? { Date().timeIntervalSince1970 }
    }

    /// Whether `path` belongs to this API.
    public static func handles(path: String) -> Bool {
        path == "/api/v1/admin" || path.hasPrefix("/api/v1/admin/")
    }

    /// Answers `request`.
    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        do {
            return try route(request)
        } catch {
            if error.status.code >= 500 {
                logger.error("admin request failed", metadata: ["path": "\(request.path)", "detail": "\(error.detail)"])
            }
            return error.response
        }
    }

    private func route(_ request: HTTPRequest) throws(APIError) -> HTTPResponse {
        let path = request.path
        let method = request.method
        try authenticate(request)
        switch path.split(separator: "/").map(String.init) {
        case ["api", "v1", "admin", "keys"]:
            switch method {
            case "GET", "HEAD": return list()
            case "POST": return try create(request)
            default: throw .methodNotAllowed(method, path: path, allow: "GET, HEAD, POST")
            }
        case let s where s.count == 5 && s[0...3] == ["api", "v1", "admin", "keys"]:
            guard method == "DELETE" else { throw .methodNotAllowed(method, path: path, allow: "DELETE") }
            return try revoke(s[4])
        default:
            throw .notFound("not_found", "no such endpoint: \(path)")
        }
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
