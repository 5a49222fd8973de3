import Logging
package import RollboardAccess
package import RollboardConfig
package import RollboardCore
import RollboardNet
import RollboardRedisLog
import RollboardSources
import RollboardStore
import Synchronization

/// `/api/v1/tv/pairings` (a TV asks for a code and polls for its pairing, unauthenticated) and
/// `/api/v1/admin/pairings` (an operator pairs a code): the driver of ``PairingCodes`` on the node's monotonic clock.
/// A pairing is a viewer key that opens only the assigned dashboard or playlist, named after the TV, whose secret
/// only the TV gets. Without Redis a code lives on the node that issued it; with Redis it is the cluster's
/// (`PairingsHandler+Cluster.swift`). See `docs/pairing.md`.
final class PairingsHandler: Sendable {
    let codes = Mutex(PairingCodes())
    let keys: ViewerKeys
    /// The cluster's codes in Redis; `nil` without Redis.
    let shared: RedisPairings?
    private let logger: Logger
    /// The wall clock, in seconds since 1970 (a key's `createdAt`, a code's `expiresAt`).
    let wallNow: @Sendable () -> Double

    init(keys: ViewerKeys, shared: RedisPairings?, logger: Logger, wallNow: @escaping @Sendable () -> Double) {
        self.keys = keys
        self.shared = shared
        self.logger = logger
        self.wallNow = wallNow
    }

    /// `POST /api/v1/tv/pairings`: 201 `{code, expiresAt, expiresIn, pollToken}`.
    func issue(_ context: RequestContext, _ respond: @escaping Respond) throws(APIError) {
        try issue(context, attempts: 8, respond)
    }

    /// Draws up to `attempts` codes until one is free (on this node, and with Redis in the cluster).
    func issue(_ context: RequestContext, attempts: Int, _ respond: @escaping Respond) throws(APIError) {
        let now = context.clock.monotonic.now()
        let address = context.request.remoteAddress ?? "unknown"
        for attempt in 0..<attempts {
            let code: String
            let pollToken: String
            let secret: String?
            do {
                guard let drawn = PairingCodes.code(from: try SecureRandom.bytes(PairingCodes.Defaults.codeLength * 2))
                else { continue }
                code = drawn
                pollToken = try SecureRandom.hex(16)
                secret = shared == nil ? nil : try ViewerKeys.drawSecret()
            } catch {
                throw APIError(status: .serviceUnavailable, code: "no_random", detail: "no random bytes for a code")
            }
            let decision = codes.withLock {
                $0.issue(code: code, pollToken: pollToken, secret: secret, address: address, now: now)
            }
            switch decision {
            case .issued(let expiresAt):
                let answer = Self.noStore(.created, .object([
                    JSONMember("code", .string(code)),
                    JSONMember("expiresAt", .string(iso8601(wallNow() + expiresAt - now))),
                    JSONMember("expiresIn", .number(expiresAt - now)),
                    JSONMember("pollToken", .string(pollToken)),
                ]))
                guard let shared, let secret else { return respond(answer) }
                return offer(
                    code, secret: secret, expiresIn: expiresAt - now, shared: shared,
                    attemptsLeft: attempts - attempt - 1, context: context, answer: answer, respond: respond)
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
        let token = context.parameter("token")
        let (answer, secret) = codes.withLock { ($0.poll(token, now: now), $0.secret(of: token)) }
        switch answer {
        case .waiting(let code, let expiresAt):
            let waiting = Self.noStore(.ok, .object([
                JSONMember("state", .string("waiting")),
                JSONMember("code", .string(code)),
                JSONMember("expiresIn", .number(expiresAt - now)),
            ]))
            guard let shared, let secret else { return respond(waiting) }
            pollShared(
                token, code: code, secret: secret, waiting: waiting, shared: shared, context: context, respond: respond)
        case .paired(let pairing):
            respond(Self.paired(pairing))
        case .unknown:
            throw Self.unknownPairing
        }
    }

    /// `POST /api/v1/admin/pairings {"code","name","show":{"dashboard"|"playlist"},"theme"?,"kiosk"?}`: 201 with the
    /// new key's id and the TV's address (without its key); an unknown, expired or used code is 404 `unknown_code`.
    func pair(_ context: RequestContext, _ respond: @escaping Respond) throws(APIError) {
        let request = try PairingRequest(try JSONBody.object(context.request), configuration: context.configuration)
        let address = context.request.remoteAddress ?? "unknown"
        if let shared {
            return try pairShared(request, address: address, shared: shared, context: context, respond: respond)
        }
        let code: String
        switch codes.withLock({ $0.claim(request.code, address: address, now: context.clock.monotonic.now()) }) {
        case .claimed(let claimed): code = claimed
        case .unknown: throw Self.unknownCode(request.code)
        case .limited(let wait): throw Self.limited(wait, "too many failed pairing attempts")
        }
        keys.create(name: request.name, dashboards: request.dashboards, now: wallNow()) { [self] result in
            switch result {
            case .success(let created):
                let url = request.page + "&key=" + SourceFetch.percentEncoded(created.secret)
                let pairing = PairingCodes.Pairing(keyID: created.key.id, secret: created.secret, url: url)
                let done = codes.withLock { $0.complete(code, with: pairing, now: context.clock.monotonic.now()) }
                guard done else {
                    let expired = APIError.notFound("unknown_code", "code: expired while it was being paired")
                    return respond(expired.response)
                }
                respond(paired(created.key.id, request, node: nil))
            case .failure(let error):
                codes.withLock { $0.release(code) }
                respond(Self.keysUnavailable(error).response)
            }
        }
    }

    /// The operator's 201 `{keyId, name, url}` (the page without its key), logged.
    func paired(_ keyID: String, _ request: PairingRequest, node: String?) -> HTTPResponse {
        var metadata: Logger.Metadata = ["key": "\(keyID)", "name": "\(request.name)", "page": "\(request.page)"]
        if let node { metadata["codeNode"] = "\(node)" }
        logger.notice("TV paired", metadata: metadata)
        return Self.noStore(.created, .object([
            JSONMember("keyId", .string(keyID)),
            JSONMember("name", .string(request.name)),
            JSONMember("url", .string(request.page)),
        ]))
    }

    /// The TV's answer once paired: `{state: "paired", keyId, key, url}`.
    static func paired(_ pairing: PairingCodes.Pairing) -> HTTPResponse {
        noStore(.ok, .object([
            JSONMember("state", .string("paired")),
            JSONMember("keyId", .string(pairing.keyID)),
            JSONMember("key", .string(pairing.secret)),
            JSONMember("url", .string(pairing.url)),
        ]))
    }

    static let unknownPairing = APIError.notFound(
        "unknown_pairing", "no pending pairing code for this poll token (expired or already paired)")

    static func unknownCode(_ typed: String) -> APIError {
        .notFound("unknown_code", "code: no pending pairing code \(JSONText.quoted(typed)) (unknown, expired or used)")
    }

    static func keysUnavailable(_ error: ViewerKeyError) -> APIError {
        APIError(status: .serviceUnavailable, code: "keys_unavailable", detail: error.description)
    }

    static func limited(_ wait: Double, _ what: String) -> APIError {
        .tooMany("rate_limited", what, retryAfter: wait)
    }

    static func noStore(_ status: HTTPStatus, _ body: JSONValue) -> HTTPResponse {
        var response = HTTPResponse(status: status, contentType: "application/json", text: body.serialized)
        response.headers.add(name: "Cache-Control", value: "no-store")
        return response
    }
}
