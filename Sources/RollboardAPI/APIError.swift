package import RollboardAccess
package import RollboardConfig
package import RollboardCore
package import RollboardHub
import RollboardNet
package import RollboardStore

/// A refused producer request: its status, a short machine-readable code and a sentence naming what is wrong.
struct APIError: Error, Equatable {
    var status: HTTPStatus
    var code: String
    var detail: String
    var headers: [(String, String)] = []

    static func == (lhs: APIError, rhs: APIError) -> Bool {
        lhs.status == rhs.status && lhs.code == rhs.code && lhs.detail == rhs.detail
    }

    /// The JSON error response `{"error":code,"detail":detail}` with any extra headers.
    var response: HTTPResponse {
        var response = HTTPResponse.error(status, code, detail: detail)
        for (name, value) in headers { response.headers.add(name: name, value: value) }
        return response
    }

    static func malformedJSON(_ detail: String) -> APIError {
        APIError(status: .badRequest, code: "malformed_json", detail: detail)
    }

    static func missingField(_ field: String) -> APIError {
        APIError(status: .badRequest, code: "missing_field", detail: "\(field): is required")
    }

    static func wrongType(_ field: String, expected: String, got value: JSONValue) -> APIError {
        APIError(
            status: .badRequest, code: "wrong_type",
            detail: "\(field): must be \(expected), got \(value.kindDescription)")
    }

    static func unknownField(_ field: String, allowed: [String]) -> APIError {
        APIError(
            status: .badRequest, code: "unknown_field",
            detail: "\(field): unknown field (allowed: \(allowed.joined(separator: ", ")))"
        )
    }

    static func badRequest(_ detail: String) -> APIError {
        APIError(status: .badRequest, code: "bad_request", detail: detail)
    }

    /// 401 `unauthorized` with the `WWW-Authenticate` challenge of `realm`; `invalid`: a token was given, but not a
    /// fitting one.
    static func unauthorized(realm: String, _ detail: String, invalid: Bool = false) -> APIError {
        let challenge = "Bearer realm=\"\(realm)\"" + (invalid ? ", error=\"invalid_token\"" : "")
        return APIError(
            status: .unauthorized, code: "unauthorized", detail: detail, headers: [("WWW-Authenticate", challenge)])
    }

    static let missingToken = unauthorized(realm: "rollboard", "writes need an Authorization: Bearer <token> header")

    static let invalidToken = unauthorized(realm: "rollboard", "the bearer token is not valid", invalid: true)

    static func forbidden(_ detail: String) -> APIError {
        APIError(status: .forbidden, code: "forbidden", detail: detail)
    }

    static func notFound(_ code: String, _ detail: String) -> APIError {
        APIError(status: .notFound, code: code, detail: detail)
    }

    static func methodNotAllowed(_ method: String, path: String, allow: String) -> APIError {
        APIError(
            status: .methodNotAllowed, code: "method_not_allowed", detail: "\(path) accepts \(allow), not \(method)",
            headers: [("Allow", allow)]
        )
    }

    static func bodyTooLarge(_ count: Int, limit: Int) -> APIError {
        APIError(
            status: .contentTooLarge, code: "content_too_large",
            detail: "the body has \(count) bytes; at most \(limit) are accepted (limits.maxBodyBytes in server.yaml)"
        )
    }

    static func unsupportedMediaType(_ contentType: String?) -> APIError {
        APIError(
            status: .unsupportedMediaType, code: "unsupported_media_type",
            detail: "Content-Type must be application/json, got \(contentType.map { "\"\($0)\"" } ?? "none")"
        )
    }

    static func invalidValue(_ detail: String) -> APIError {
        APIError(status: .unprocessableContent, code: "invalid_value", detail: detail)
    }

    static func rateLimited(retryAfter seconds: Double) -> APIError {
        tooMany("rate_limited", "too many writes with this token", retryAfter: seconds)
    }

    /// 429 `code`: "`what`; retry in N s", with `Retry-After: N` (the seconds rounded up).
    static func tooMany(_ code: String, _ what: String, retryAfter seconds: Double) -> APIError {
        let whole = Int(seconds.rounded(.up))
        return APIError(
            status: .tooManyRequests, code: code, detail: "\(what); retry in \(whole) s",
            headers: [("Retry-After", String(whole))])
    }

    static func storeUnavailable(_ error: StoreError) -> APIError {
        APIError(
            status: .serviceUnavailable,
            code: error.isUnreachable
                ? "redis_unavailable"
                : error.isHistoryLost
                    ? "redis_history_lost" : error.isUnreplicated ? "redis_unreplicated" : "store_unavailable",
            detail: error.description)
    }

    static func commitTimeout(seconds: Double) -> APIError {
        APIError(
            status: .serviceUnavailable, code: "commit_timeout",
            detail: "the disk did not confirm the write within \(formatNumber(seconds)) s; the value may or may not "
                + "have been stored (read it back before posting again)",
            headers: [("Retry-After", "5")])
    }

    static func storeStalled(seconds: Double) -> APIError {
        APIError(
            status: .serviceUnavailable, code: "store_stalled",
            detail: "a write has waited \(Int(seconds)) s for the disk to confirm it")
    }
}

extension APIError {
    static func viewerKeyRequired(_ detail: String) -> APIError {
        APIError(
            status: .unauthorized, code: "viewer_key_required", detail: detail,
            headers: [("WWW-Authenticate", "Bearer realm=\"rollboard\"")])
    }

    static func viewerKeyRefused(_ detail: String) -> APIError {
        APIError(status: .forbidden, code: "invalid_viewer_key", detail: detail)
    }

    static let missingAdminToken = unauthorized(
        realm: "rollboard-admin", "admin requests need an Authorization: Bearer <admin token> header")

    static let invalidAdminToken = unauthorized(
        realm: "rollboard-admin", "the bearer token is not an admin token", invalid: true)
}
