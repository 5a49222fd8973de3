import Testing

/// A producer request the API must refuse, and how.
struct BadProducerRequest: Sendable, CustomTestStringConvertible {
    enum Token: Sendable {
        case valid, wrong, none
    }

    let name: String
    var method = "POST"
    var target = "/api/v1/metrics/revenue"
    var body = #"{"value": 1}"#
    var oversizedBody: Int?
    var token = Token.valid
    var contentType: String? = "application/json"
    let status: Int
    let error: String
    var header: (String, String)?

    var testDescription: String { "\(name) → \(status) \(error)" }

    static let all = [
        BadProducerRequest(
            name: "no token", token: .none, status: 401, error: "unauthorized",
            header: ("WWW-Authenticate", #"Bearer realm="rollboard""#)),
        BadProducerRequest(
            name: "a wrong token", token: .wrong, status: 401, error: "unauthorized",
            header: ("WWW-Authenticate", "invalid_token")),
        BadProducerRequest(name: "an unknown metric", target: "/api/v1/metrics/profit", status: 404, error: "unknown_metric"),
        BadProducerRequest(name: "a wheel as a metric", target: "/api/v1/metrics/status", status: 404, error: "unknown_metric"),
        BadProducerRequest(name: "an unknown endpoint", target: "/api/v1/gauges/revenue", status: 404, error: "not_found"),
        BadProducerRequest(name: "a non-finite value", body: #"{"value": 1e400}"#, status: 422, error: "invalid_value"),
        BadProducerRequest(
            name: "visitors too wide for 5 columns", target: "/api/v1/metrics/visitors", body: #"{"value": 123456}"#,
            status: 422, error: "invalid_value"),
        BadProducerRequest(
            name: "revenue too wide for 10 columns", body: #"{"value": 123456789.5}"#, status: 422, error: "invalid_value"),
        BadProducerRequest(name: "an interval of 0", body: #"{"value": 1, "interval": 0}"#, status: 422, error: "invalid_value"),
        BadProducerRequest(name: "malformed JSON", body: #"{"value": }"#, status: 400, error: "malformed_json"),
        BadProducerRequest(name: "NaN", body: #"{"value": NaN}"#, status: 400, error: "malformed_json"),
        BadProducerRequest(name: "a JSON array", body: "[1]", status: 400, error: "malformed_json"),
        BadProducerRequest(name: "a string value", body: #"{"value": "12"}"#, status: 400, error: "wrong_type"),
        BadProducerRequest(name: "no value", body: #"{"interval": 1}"#, status: 400, error: "missing_field"),
        BadProducerRequest(name: "a misspelt field", body: #"{"vaule": 1}"#, status: 400, error: "unknown_field"),
        BadProducerRequest(
            name: "a text/plain body", contentType: "text/plain", status: 415, error: "unsupported_media_type"),
        BadProducerRequest(name: "no content type", contentType: nil, status: 415, error: "unsupported_media_type"),
        // The transport's limit equals limits.maxBodyBytes, so it answers before the API does (with its own code).
        BadProducerRequest(name: "a body over 64 KiB", oversizedBody: 65_537, status: 413, error: "content_too_large"),
        BadProducerRequest(
            name: "DELETE of a metric", method: "DELETE", body: "", contentType: nil, status: 405,
            error: "method_not_allowed", header: ("Allow", "GET, HEAD, POST")),
        BadProducerRequest(
            name: "POST to /healthz", target: "/healthz", status: 405, error: "method_not_allowed",
            header: ("Allow", "GET, HEAD")),
        BadProducerRequest(
            name: "POST to /metrics", target: "/metrics", status: 405, error: "method_not_allowed",
            header: ("Allow", "GET, HEAD")),
        BadProducerRequest(
            name: "a batch item with an unknown id", target: "/api/v1/metrics",
            body: #"{"updates":[{"id":"revenue","value":1},{"id":"profit","value":2}]}"#, status: 422,
            error: "invalid_value"),
        BadProducerRequest(
            name: "an empty batch", target: "/api/v1/metrics", body: #"{"updates":[]}"#, status: 422,
            error: "invalid_value"),
        BadProducerRequest(
            name: "wheel index 5 of 5 labels", target: "/api/v1/wheels/status", body: #"{"index": 5}"#, status: 422,
            error: "invalid_value"),
        BadProducerRequest(
            name: "wheel progress 1.5", target: "/api/v1/wheels/status", body: #"{"progress": 1.5}"#, status: 422,
            error: "invalid_value"),
        BadProducerRequest(
            name: "wheel index and progress", target: "/api/v1/wheels/status", body: #"{"index": 1, "progress": 0.5}"#,
            status: 400, error: "bad_request"),
        BadProducerRequest(
            name: "a fractional wheel index", target: "/api/v1/wheels/status", body: #"{"index": 1.5}"#, status: 400,
            error: "wrong_type"),
        BadProducerRequest(
            name: "carousel action spin", target: "/api/v1/carousels/news", body: #"{"action": "spin"}"#, status: 422,
            error: "invalid_value"),
        BadProducerRequest(
            name: "carousel goto page 4 of 4 slides", target: "/api/v1/carousels/news",
            body: #"{"action": "goto", "page": 4}"#, status: 422, error: "invalid_value"),
        BadProducerRequest(
            name: "carousel next with a page", target: "/api/v1/carousels/news", body: #"{"action": "next", "page": 1}"#,
            status: 400, error: "bad_request"),
        BadProducerRequest(
            name: "carousel goto without a page", target: "/api/v1/carousels/news", body: #"{"action": "goto"}"#,
            status: 400, error: "missing_field"),
        BadProducerRequest(
            name: "GET of a carousel", method: "GET", target: "/api/v1/carousels/news", body: "", contentType: nil,
            status: 405, error: "method_not_allowed", header: ("Allow", "POST")),
    ]
}
