import Foundation
import RollboardNet
import Testing

@testable import RollboardAccess

/// The console's sessions through the real TLS server, on a manual clock: the cookie's flags, the CSRF token on
/// writes, the bearer token kept, and the idle expiry.
@Suite("SessionsAPI")
struct SessionsAPITests {
    private func signIn(_ live: LiveServer) throws -> (cookie: String, setCookie: String, csrf: String) {
        let response = try live.request(
            "POST", "/admin/session", body: Array(#"{"token":"\#(LiveServer.adminToken)"}"#.utf8),
            contentType: "application/json")
        #expect(response.status == .created)
        let setCookie = try #require(response.headers["Set-Cookie"])
        let cookie = String(try #require(setCookie.split(separator: ";").first))
        let csrf = try #require(try jsonObject(response.body)["csrfToken"] as? String)
        return (cookie, setCookie, csrf)
    }

    @Test("signing in sets an HttpOnly, Secure, SameSite=Strict cookie whose writes need the session's CSRF token")
    func cookieAndCSRF() throws {
        try withLiveServer(clock: ManualClock(at: 1_800_000_000)) { live in
            let (cookie, setCookie, csrf) = try signIn(live)
            #expect(cookie.hasPrefix("rollboard_session=") && cookie.count > 60)
            for flag in ["HttpOnly", "Secure", "SameSite=Strict", "Path=/"] {
                #expect(setCookie.split(separator: ";").contains { $0.trimmingCharacters(in: .whitespaces) == flag })
            }
            let withCookie: HTTPHeaders = ["Cookie": cookie]
            #expect(try live.request("GET", "/api/v1/screens", headers: withCookie).status == .ok)
            let refused = try live.request(
                "POST", "/api/v1/admin/announce", body: Array(#"{"text":"x","seconds":0}"#.utf8),
                contentType: "application/json", headers: withCookie)
            #expect(refused.status == .forbidden && refused.errorCode == "csrf_token")
            let allowed = try live.request(
                "POST", "/api/v1/admin/announce", body: Array(#"{"text":"x","seconds":0}"#.utf8),
                contentType: "application/json", headers: ["Cookie": cookie, "X-CSRF-Token": csrf])
            #expect(allowed.status == .accepted)
            let bearer = try live.request("GET", "/api/v1/screens", token: LiveServer.adminToken)
            #expect(bearer.status == .ok, "the admin API keeps bearer tokens")
            let none = try live.request("GET", "/api/v1/screens")
            #expect(none.status == .unauthorized)
        }
    }

    @Test(
        "a session ends after 12 hours without a request on the node's clock",
        arguments: [(43_199.0, true), (43_200.0, false)])
    func idleExpiry(_ idle: Double, _ alive: Bool) throws {
        let clock = ManualClock(at: 1_800_000_000)
        try withLiveServer(clock: clock) { live in
            let (cookie, _, _) = try signIn(live)
            clock.step(to: 1_800_000_000 + idle)
            let response = try live.request("GET", "/api/v1/screens", headers: ["Cookie": cookie])
            if alive {
                #expect(response.status == .ok)
            } else {
                #expect(response.status == .unauthorized && response.errorCode == "session_expired")
            }
        }
    }

    @Test(
        "past 10 failed sign-ins a minute from an address, every sign-in is 429 with Retry-After until the window ends",
        arguments: [(30.0, true), (60.0, false)])
    func signInLimit(after seconds: Double, refused: Bool) throws {
        let clock = ManualClock(at: 1_800_000_000)
        try withLiveServer(clock: clock) { live in
            func attempt(_ token: String) throws -> HTTPResponse {
                try live.request(
                    "POST", "/admin/session", body: Array(#"{"token":"\#(token)"}"#.utf8), contentType: "application/json")
            }
            for _ in 0..<ConsoleSessions.Defaults.failedSignInsPerAddress {
                #expect(try attempt("wrong-token").status == .unauthorized)
            }
            let limited = try attempt(LiveServer.adminToken)
            #expect(limited.status == .tooManyRequests && limited.errorCode == "too_many_sign_ins", "the right token too")
            #expect(limited.headers["Retry-After"] == "60")
            clock.step(to: 1_800_000_000 + seconds)
            let later = try attempt(LiveServer.adminToken)
            #expect(later.status == (refused ? .tooManyRequests : .created), "\(later.text)")
            if refused { #expect(later.headers["Retry-After"] == "30") }
        }
    }
}
