import Testing

/// A read that must answer, with what its answer holds.
struct PageRequest: Sendable, CustomTestStringConvertible {
    let target: String
    var accept: String? = nil
    let status: Int
    let contentType: String
    let contains: String

    var testDescription: String { "GET \(target)\(accept.map { " (Accept: \($0))" } ?? "") → \(status)" }

    /// What a browser sends as `Accept` for a page.
    static let browser = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"

    static let all = [
        PageRequest(target: "/healthz", status: 200, contentType: "application/json", contains: #""status":"ok""#),
        PageRequest(target: "/metrics", status: 200, contentType: "text/plain", contains: "rollboard_posts_accepted_total 1"),
        PageRequest(target: "/metrics", status: 200, contentType: "text/plain", contains: "rollboard_store_commit_seconds_count 1\n"),
        PageRequest(target: "/d/demo", status: 200, contentType: "text/html", contains: "<html"),
        PageRequest(target: "/d/nope", status: 404, contentType: "application/json", contains: "unknown_dashboard"),
        PageRequest(
            target: "/d/nope", accept: browser, status: 404, contentType: "text/html",
            contains: #"No dashboard “nope”"#),
        PageRequest(
            target: "/d/%3Cb%3Ex", accept: browser, status: 404, contentType: "text/html",
            contains: #"<a class="refusal__link" href="/" data-carry-query>the list of dashboards</a>"#),
        PageRequest(target: "/", status: 200, contentType: "text/html", contains: "<html"),
        PageRequest(target: "/api/v1/dashboards/demo", status: 200, contentType: "application/json", contains: #""id":"demo""#),
        PageRequest(target: "/api/v1/metrics/orders", status: 200, contentType: "application/json", contains: #""value":12"#),
    ]
}
