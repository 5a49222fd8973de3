import Testing

/// An upgrade request and the answer it must get.
struct UpgradeAttempt: Sendable, CustomTestStringConvertible {
    let name: String
    let target: String
    let headers: [(String, String)]
    let status: Int
    let error: String?
    var offersVersion13 = false

    var testDescription: String { "\(name) → \(status)" }

    private static let base: [(String, String)] = [
        ("Upgrade", "websocket"), ("Connection", "Upgrade"), ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="),
        ("Sec-WebSocket-Version", "13"),
    ]

    private static func without(_ name: String) -> [(String, String)] {
        base.filter { $0.0 != name }
    }

    static let all = [
        UpgradeAttempt(
            name: "an origin of this host", target: "/ws?dashboard=demo",
            headers: base + [("Origin", "https://localhost:{port}")], status: 101, error: nil),
        UpgradeAttempt(
            name: "a foreign origin", target: "/ws?dashboard=demo",
            headers: base + [("Origin", "https://evil.example")], status: 403, error: "origin_not_allowed"),
        UpgradeAttempt(
            name: "this host on another port", target: "/ws?dashboard=demo",
            headers: base + [("Origin", "https://localhost:1")], status: 403, error: "origin_not_allowed"),
        UpgradeAttempt(
            name: "a rebound name whose Host header names it too", target: "/ws?dashboard=demo",
            headers: base + [("Host", "attacker.example:{port}"), ("Origin", "https://attacker.example:{port}")],
            status: 403, error: "origin_not_allowed"),
        UpgradeAttempt(
            name: "this host over plain http", target: "/ws?dashboard=demo",
            headers: base + [("Origin", "http://localhost:{port}")], status: 403, error: "origin_not_allowed"),
        UpgradeAttempt(
            name: "a Host without a port and an origin on another port", target: "/ws?dashboard=demo",
            headers: base + [("Host", "localhost"), ("Origin", "https://localhost:8080")],
            status: 403, error: "origin_not_allowed"),
        UpgradeAttempt(
            name: "no Sec-WebSocket-Version", target: "/ws?dashboard=demo",
            headers: without("Sec-WebSocket-Version"), status: 426, error: nil, offersVersion13: true),
        UpgradeAttempt(
            name: "Sec-WebSocket-Version 8", target: "/ws?dashboard=demo",
            headers: without("Sec-WebSocket-Version") + [("Sec-WebSocket-Version", "8")], status: 426, error: nil,
            offersVersion13: true),
        UpgradeAttempt(
            name: "no Sec-WebSocket-Key", target: "/ws?dashboard=demo",
            headers: without("Sec-WebSocket-Key"), status: 400, error: nil),
        UpgradeAttempt(
            name: "fps 0", target: "/ws?dashboard=demo&fps=0", headers: base, status: 400, error: "invalid_fps"),
        UpgradeAttempt(
            name: "fps 61", target: "/ws?dashboard=demo&fps=61", headers: base, status: 400, error: "invalid_fps"),
        UpgradeAttempt(name: "another path", target: "/api/v1/metrics", headers: base, status: 404, error: "not_found"),
        UpgradeAttempt(
            name: "plain GET of /ws", target: "/ws?dashboard=demo&plain", headers: [], status: 426,
            error: "upgrade_required"),
    ]
}
