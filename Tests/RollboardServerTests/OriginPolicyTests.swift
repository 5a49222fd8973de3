import Testing

@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardMetrics
@testable import RollboardSources
@testable import RollboardServer

@Suite("Origin policy")
struct OriginPolicyTests {
    private static let policy = OriginPolicy(
        allowedOrigins: ["https://tv.example.com"], isSecure: true, listenHost: "::", hostNames: ["wallbox"])

    @Test(
        "an origin is allowed exactly when it is listed or is this server's own",
        arguments: [
            (nil, "localhost:8443", true),
            ("https://localhost:8443", "localhost:8443", true),
            ("https://LOCALHOST:8443", "localhost:8443", true),
            ("https://127.0.0.1:8443", "127.0.0.1:8443", true),
            ("https://[::1]:8443", "[::1]:8443", true),
            ("https://10.1.2.3:8443", "10.1.2.3:8443", true),
            ("https://wallbox:8443", "wallbox:8443", true),
            ("https://tv.example.com", "anything:1", true),
            ("https://localhost", "localhost", true),
            ("https://localhost:443", "localhost", true),
            ("https://attacker.example:8443", "attacker.example:8443", false),
            ("http://localhost:8443", "localhost:8443", false),
            ("https://localhost:8080", "localhost", false),
            ("https://localhost", "localhost:8443", false),
            ("https://localhost:1", "localhost:8443", false),
            ("https://127.0.0.1:8443", "localhost:8443", false),
            ("https://localhost:8443", nil, false),
            ("https://localhost:8443/page", "localhost:8443", false),
            ("null", "localhost:8443", false),
            ("https://tv.example.com.attacker.example", "localhost:8443", false),
        ] as [(String?, String?, Bool)])
    func decisions(origin: String?, host: String?, allowed: Bool) {
        #expect((Self.policy.problem(origin: origin, host: host) == nil) == allowed)
    }

    @Test("a plain-HTTP server's own pages have http origins")
    func plainServer() {
        let policy = OriginPolicy(allowedOrigins: [], isSecure: false, listenHost: "::", hostNames: [])
        #expect(policy.problem(origin: "http://localhost:8080", host: "localhost:8080") == nil)
        #expect(policy.problem(origin: "https://localhost:8080", host: "localhost:8080") != nil)
    }

    @Test("a wildcard allows every origin, and a refusal says how to allow one")
    func wildcardAndAdvice() {
        let open = OriginPolicy(allowedOrigins: ["*"], isSecure: true, listenHost: "::", hostNames: [])
        #expect(open.problem(origin: "https://attacker.example", host: "localhost:8443") == nil)
        #expect(
            Self.policy.problem(origin: "https://attacker.example", host: "attacker.example")
                == "origin https://attacker.example is not allowed; add it to allowedOrigins in config/server.yaml")
    }
}
