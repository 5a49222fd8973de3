import Logging
package import RollboardAccess
package import RollboardConfig
package import RollboardCore
import RollboardNet
import RollboardStore
import Synchronization

/// The console's sessions (`/admin/session`, `/api/v1/admin/sessions`): the driver of ``ConsoleSessions`` on the node's
/// clock. Signing in with an admin token sets the `rollboard_session` cookie (HttpOnly, SameSite=Strict, Path=/,
/// Secure over TLS) to a fresh secret and answers the session's CSRF token, which every write made with the cookie
/// carries in `X-CSRF-Token`. See `docs/console.md`.
final class SessionsHandler: Sendable {
    private let sessions = Mutex(ConsoleSessions())
    private let tokens: [[UInt8]]
    private let isSecure: Bool
    private let logger: Logger

    init(tokens: [String], isSecure: Bool, logger: Logger) {
        self.tokens = tokens.map { Array($0.utf8) }
        self.isSecure = isSecure
        self.logger = logger
    }

    /// `POST /admin/session` with `{"token"}` or the form `token=…`: 201 `{id, csrfToken, expiresIn}` and the cookie
    /// (a form is answered 303 to `/admin/`); a wrong token is 401. A cookie the client already had is never kept.
    /// Past the failed sign-ins ``ConsoleSessions`` allows a window, every sign-in is 429 `too_many_sign_ins` with
    /// `Retry-After` until the window ends.
    func signIn(_ context: RequestContext, _ respond: @escaping Respond) throws(APIError) {
        let request = context.request
        let address = request.remoteAddress ?? "unknown"
        if let wait = sessions.withLock({ $0.signInRetryAfter(address: address, now: context.clock.monotonic.now()) }) {
            throw .tooMany("too_many_sign_ins", "too many failed sign-ins", retryAfter: wait)
        }
        let limit = context.configuration.server.limits.maxBodyBytes
        guard request.body.count <= limit else { throw .bodyTooLarge(request.body.count, limit: limit) }
        let isForm = Self.mediaType(request) == "application/x-www-form-urlencoded"
        let token: String
        if isForm {
            let form = HTTPRequest(method: "GET", target: "/?" + String(decoding: request.body, as: UTF8.self))
            guard let value = form.query["token"] else { throw .missingField("token") }
            token = value
        } else {
            guard Self.mediaType(request) == "application/json" else {
                throw .unsupportedMediaType(request.headers["Content-Type"])
            }
            let object = try JSONBody.object(request)
            try JSONBody.rejectUnknownFields(object, allowed: ["token"], prefix: "")
            guard let value = object["token"] else { throw .missingField("token") }
            guard case .string(let text) = value else { throw .wrongType("token", expected: "a string", got: value) }
            token = text
        }
        let presented = Array(token.trimmingWhitespaceAndNewlines().utf8)
        var isAdmin = false
        for known in tokens where ConstantTime.equals(known, presented) { isAdmin = true }
        guard isAdmin else {
            sessions.withLock { $0.signInFailed(address: address, now: context.clock.monotonic.now()) }
            logger.warning("console sign-in refused: not an admin token", metadata: ["address": "\(address)"])
            throw APIError(status: .unauthorized, code: "invalid_admin_token", detail: "token: not an admin token")
        }
        let secret: String
        let csrfToken: String
        do {
            secret = try SecureRandom.hex(32)
            csrfToken = try SecureRandom.hex(32)
        } catch {
            throw APIError(status: .serviceUnavailable, code: "no_random", detail: "no random bytes for a session")
        }
        if let old = request.cookie(ConsoleSessions.Defaults.cookieName) {
            _ = sessions.withLock { $0.end(secret: old) }
        }
        let id = sessions.withLock {
            $0.create(
                secret: secret, csrfToken: csrfToken, address: address, now: context.clock.monotonic.now(),
                wallNow: context.clock.wall.now())
        }
        logger.notice("console session started", metadata: ["session": "\(id)", "address": "\(address)"])
        var response: HTTPResponse
        if isForm {
            response = HTTPResponse(
                status: HTTPStatus(code: 303, reason: "See Other"), headers: ["Location": "/admin/"])
        } else {
            response = Self.noStore(.created, Self.json(id: id, csrfToken: csrfToken))
        }
        response.headers.add(name: "Set-Cookie", value: cookie(secret, maxAge: nil))
        respond(response)
    }

    /// `GET /admin/session`: `{id, csrfToken, expiresIn}` of the cookie's session; 401 without one.
    func current(_ context: RequestContext, _ respond: @escaping Respond) throws(APIError) {
        let (id, csrfToken) = try authenticate(context)
        respond(Self.noStore(.ok, Self.json(id: id, csrfToken: csrfToken)))
    }

    /// `DELETE /admin/session` (with the CSRF token): 204, the session ended and the cookie cleared.
    func signOut(_ context: RequestContext, _ respond: @escaping Respond) throws(APIError) {
        let (id, _) = try authenticate(context)
        if let secret = context.request.cookie(ConsoleSessions.Defaults.cookieName) {
            _ = sessions.withLock { $0.end(secret: secret) }
        }
        logger.notice("console session ended", metadata: ["session": "\(id)"])
        var response = HTTPResponse(status: .noContent)
        response.headers.add(name: "Set-Cookie", value: cookie("", maxAge: 0))
        respond(response)
    }

    /// `GET /api/v1/admin/sessions`: `{sessions: [{id, createdAt, lastUsedAt, address}]}`, oldest first.
    func list(_ context: RequestContext, _ respond: @escaping Respond) {
        let listed = sessions.withLock { $0.list(now: context.clock.monotonic.now()) }
        respond(JSONResponse.ok(.object([
            JSONMember("sessions", .array(listed.map { session in
                .object([
                    JSONMember("id", .string(session.id)),
                    JSONMember("createdAt", .string(iso8601(session.createdAt))),
                    JSONMember("lastUsedAt", .string(iso8601(session.lastUsedAt))),
                    JSONMember("address", .string(session.address)),
                ])
            })),
        ])))
    }

    /// `DELETE /api/v1/admin/sessions/{id}`: 204, or 404 `unknown_session`.
    func revoke(_ context: RequestContext, _ respond: @escaping Respond) throws(APIError) {
        let id = context.parameter("id")
        guard sessions.withLock({ $0.revoke(id: id) }) else {
            throw .notFound("unknown_session", "no console session \(JSONText.quoted(id))")
        }
        logger.notice("console session revoked", metadata: ["session": "\(id)"])
        respond(HTTPResponse(status: .noContent))
    }

    /// Whether `request` carries the cookie of a live session (the console's pages ask before they are served).
    func hasSession(_ request: HTTPRequest, clock: NodeClock) -> Bool {
        guard let secret = request.cookie(ConsoleSessions.Defaults.cookieName) else { return false }
        let decision = sessions.withLock {
            $0.check(
                secret: secret, csrfToken: nil, isWrite: false, now: clock.monotonic.now(), wallNow: clock.wall.now())
        }
        if case .allowed = decision { return true }
        return false
    }

    /// The session of the request's cookie, its id and CSRF token: 401 without a live one, 403 `csrf_token` for a
    /// write (any method but GET and HEAD) without its CSRF token.
    func authenticate(_ context: RequestContext) throws(APIError) -> (id: String, csrfToken: String) {
        let request = context.request
        guard let secret = request.cookie(ConsoleSessions.Defaults.cookieName) else { throw Self.noSession }
        let isWrite = request.method != "GET" && request.method != "HEAD"
        let decision = sessions.withLock {
            $0.check(
                secret: secret, csrfToken: request.headers[ConsoleSessions.Defaults.csrfHeader], isWrite: isWrite,
                now: context.clock.monotonic.now(), wallNow: context.clock.wall.now())
        }
        switch decision {
        case .allowed(let id, let csrfToken): return (id, csrfToken)
        case .unknown: throw Self.noSession
        case .expired:
            throw APIError(
                status: .unauthorized, code: "session_expired", detail: "the console session expired; sign in again")
        case .csrfRefused:
            throw APIError(
                status: .forbidden, code: "csrf_token",
                detail: "X-CSRF-Token: a write made with the session cookie needs the session's CSRF token")
        }
    }

    static let noSession = APIError(
        status: .unauthorized, code: "unauthorized",
        detail: "no console session: sign in at /admin/sign-in, or send Authorization: Bearer <admin token>")

    private func cookie(_ value: String, maxAge: Int?) -> String {
        var cookie = "\(ConsoleSessions.Defaults.cookieName)=\(value); Path=/; HttpOnly; SameSite=Strict"
        if isSecure { cookie += "; Secure" }
        if let maxAge { cookie += "; Max-Age=\(maxAge)" }
        return cookie
    }

    private static func json(id: String, csrfToken: String) -> JSONValue {
        .object([
            JSONMember("id", .string(id)),
            JSONMember("csrfToken", .string(csrfToken)),
            JSONMember("idleExpiresIn", .number(ConsoleSessions.Defaults.idleLifetime)),
        ])
    }

    private static func mediaType(_ request: HTTPRequest) -> String? {
        request.headers["Content-Type"]?.split(separator: ";", maxSplits: 1).first.map {
            String($0).trimmingWhitespaceAndNewlines().lowercased()
        }
    }

    private static func noStore(_ status: HTTPStatus, _ body: JSONValue) -> HTTPResponse {
        var response = HTTPResponse(status: status, contentType: "application/json", text: body.serialized)
        response.headers.add(name: "Cache-Control", value: "no-store")
        return response
    }
}
