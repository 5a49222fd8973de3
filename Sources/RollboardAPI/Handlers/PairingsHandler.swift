import Logging
package import RollboardAccess
package import RollboardConfig
package import RollboardCore
import RollboardNet
import RollboardSources
import RollboardStore
import Synchronization

/// `/api/v1/tv/pairings` (a TV asks for a code and polls for its pairing, unauthenticated) and
/// `/api/v1/admin/pairings` (an operator pairs a code): the driver of ``PairingCodes`` on the node's monotonic clock.
/// A pairing is a viewer key that opens only the assigned dashboard or playlist, named after the TV, whose secret
/// only the TV gets. See `docs/pairing.md`.
final class PairingsHandler: Sendable {
    private let codes = Mutex(PairingCodes())
    private let keys: ViewerKeys
    private let logger: Logger
    /// The wall clock, in seconds since 1970 (a key's `createdAt`, a code's `expiresAt`).
    private let wallNow: @Sendable () -> Double

    init(keys: ViewerKeys, logger: Logger, wallNow: @escaping @Sendable () -> Double) {
        self.keys = keys
        self.logger = logger
        self.wallNow = wallNow
    }

    /// `POST /api/v1/tv/pairings`: 201 `{code, expiresAt, expiresIn, pollToken}`.
    func issue(_ context: RequestContext, _ respond: @escaping Respond) throws(APIError) {
        let now = context.clock.monotonic.now()
        let address = context.request.remoteAddress ?? "unknown"
        for _ in 0..<8 {
            let code: String
            let pollToken: String
            do {
                guard let drawn = PairingCodes.code(from: try SecureRandom.bytes(PairingCodes.Defaults.codeLength * 2))
                else { continue }
                code = drawn
                pollToken = try SecureRandom.hex(16)
            } catch {
                throw APIError(status: .serviceUnavailable, code: "no_random", detail: "no random bytes for a code")
            }
            switch codes.withLock({ $0.issue(code: code, pollToken: pollToken, address: address, now: now) }) {
            case .issued(let expiresAt):
                let body = JSONValue.object([
                    JSONMember("code", .string(code)),
                    JSONMember("expiresAt", .string(iso8601(wallNow() + expiresAt - now))),
                    JSONMember("expiresIn", .number(expiresAt - now)),
                    JSONMember("pollToken", .string(pollToken)),
                ])
                return respond(Self.noStore(.created, body))
            case .taken:
                continue
            case .limited(let wait):
                throw Self.limited(wait, "too many pairing codes asked for from this address")
            case .full:
                throw APIError(
                    status: .serviceUnavailable, code: "pairing_full",
                    detail: "\(PairingCodes.Defaults.maxPending) pairing codes are pending; try again later",
                    headers: [("Retry-After", String(Int(PairingCodes.Defaults.window)))])
            }
        }
        throw APIError(status: .serviceUnavailable, code: "no_random", detail: "no free pairing code was drawn")
    }

    /// `GET /api/v1/tv/pairings/{pollToken}`: `{state: "waiting", code, expiresIn}`, or once `{state: "paired",
    /// key, keyId, url}`; 404 when the code expired or was handed over (the TV asks for a new one).
    func poll(_ context: RequestContext, _ respond: @escaping Respond) throws(APIError) {
        let now = context.clock.monotonic.now()
        switch codes.withLock({ $0.poll(context.parameter("token"), now: now) }) {
        case .waiting(let code, let expiresAt):
            respond(Self.noStore(.ok, .object([
                JSONMember("state", .string("waiting")),
                JSONMember("code", .string(code)),
                JSONMember("expiresIn", .number(expiresAt - now)),
            ])))
        case .paired(let pairing):
            respond(Self.noStore(.ok, .object([
                JSONMember("state", .string("paired")),
                JSONMember("keyId", .string(pairing.keyID)),
                JSONMember("key", .string(pairing.secret)),
                JSONMember("url", .string(pairing.url)),
            ])))
        case .unknown:
            throw .notFound(
                "unknown_pairing", "no pending pairing code for this poll token (expired or already paired)")
        }
    }

    /// `POST /api/v1/admin/pairings {"code","name","show":{"dashboard"|"playlist"},"theme"?,"kiosk"?}`: 201 with the
    /// new key's id and the TV's address (without its key); an unknown, expired or used code is 404 `unknown_code`.
    func pair(_ context: RequestContext, _ respond: @escaping Respond) throws(APIError) {
        let request = try PairingRequest(try JSONBody.object(context.request), configuration: context.configuration)
        let now = context.clock.monotonic.now()
        let address = context.request.remoteAddress ?? "unknown"
        let code: String
        switch codes.withLock({ $0.claim(request.code, address: address, now: now) }) {
        case .claimed(let claimed): code = claimed
        case .unknown:
            let typed = JSONText.quoted(request.code)
            throw .notFound("unknown_code", "code: no pending pairing code \(typed) (unknown, expired or used)")
        case .limited(let wait): throw Self.limited(wait, "too many failed pairing attempts")
        }
        let page = request.page
        keys.create(name: request.name, dashboards: request.dashboards, now: wallNow()) { [self] result in
            switch result {
            case .success(let created):
                let url = page + "&key=" + SourceFetch.percentEncoded(created.secret)
                let pairing = PairingCodes.Pairing(keyID: created.key.id, secret: created.secret, url: url)
                let done = codes.withLock { $0.complete(code, with: pairing, now: context.clock.monotonic.now()) }
                logger.notice(
                    "TV paired", metadata: ["key": "\(created.key.id)", "name": "\(request.name)", "page": "\(page)"])
                guard done else {
                    let expired = APIError.notFound("unknown_code", "code: expired while it was being paired")
                    return respond(expired.response)
                }
                respond(Self.noStore(.created, .object([
                    JSONMember("keyId", .string(created.key.id)),
                    JSONMember("name", .string(request.name)),
                    JSONMember("url", .string(page)),
                ])))
            case .failure(let error):
                codes.withLock { $0.release(code) }
                let unavailable = APIError(
                    status: .serviceUnavailable, code: "keys_unavailable", detail: error.description)
                respond(unavailable.response)
            }
        }
    }

    private static func limited(_ wait: Double, _ what: String) -> APIError {
        .tooMany("rate_limited", what, retryAfter: wait)
    }

    private static func noStore(_ status: HTTPStatus, _ body: JSONValue) -> HTTPResponse {
        var response = HTTPResponse(status: status, contentType: "application/json", text: body.serialized)
        response.headers.add(name: "Cache-Control", value: "no-store")
        return response
    }
}
