import Foundation
import RollboardNet
import Testing

@testable import RollboardAccess
@testable import RollboardAPI
@testable import RollboardConfig

/// Pairing a TV through the real TLS server, on a manual clock, with every shipped dashboard behind a key.
extension LiveServer {
    /// A TV's `POST /api/v1/tv/pairings`: its code and poll token.
    func tvCode() throws -> (code: String, pollToken: String) {
        let response = try request("POST", "/api/v1/tv/pairings")
        guard response.status == .created else {
            throw LiveServerError("code: \(response.status.code) \(response.text)")
        }
        let json = try jsonObject(response.body)
        return (try #require(json["code"] as? String), try #require(json["pollToken"] as? String))
    }

    /// An operator's `POST /api/v1/admin/pairings` with `body`, with the admin token.
    func pair(_ body: String) throws -> HTTPResponse {
        try request(
            "POST", "/api/v1/admin/pairings", body: Array(body.utf8), token: LiveServer.adminToken,
            contentType: "application/json")
    }
}

@Suite("PairingsAPI")
struct PairingsAPITests {
    private func tvCode(_ live: LiveServer) throws -> (code: String, pollToken: String) {
        try live.tvCode()
    }

    private func pair(_ live: LiveServer, _ body: String) throws -> HTTPResponse {
        try live.pair(body)
    }

    @Test("a TV gets a code, an operator pairs it, and the TV alone gets a key that opens only its dashboard, once")
    func pairing() throws {
        let clock = ManualClock(at: 1_800_000_000)
        try withLiveServer(dashboardAccess: .viewerKey, clock: clock) { live in
            let (code, pollToken) = try tvCode(live)
            let waiting = try live.request("GET", "/api/v1/tv/pairings/\(pollToken)")
            #expect(waiting.text == #"{"state":"waiting","code":"\#(code)","expiresIn":600}"#)

            let paired = try pair(
                live, #"{"code":"\#(code.lowercased())","name":"Lobby TV","show":{"dashboard":"demo"},"kiosk":true}"#)
            #expect(paired.status == .created)
            let answer = try jsonObject(paired.body)
            let keyID = try #require(answer["keyId"] as? String)
            #expect(answer["url"] as? String == "/d/demo?name=Lobby%20TV&kiosk")
            #expect(!paired.text.contains("rbv_"), "the operator never sees the secret")

            let handed = try jsonObject(try live.request("GET", "/api/v1/tv/pairings/\(pollToken)").body)
            let secret = try #require(handed["key"] as? String)
            #expect(handed["state"] as? String == "paired" && handed["keyId"] as? String == keyID)
            #expect(handed["url"] as? String == "/d/demo?name=Lobby%20TV&kiosk&key=\(secret)")
            let again = try live.request("GET", "/api/v1/tv/pairings/\(pollToken)")
            #expect(again.status == .notFound && again.errorCode == "unknown_pairing", "handed over once")

            #expect(try live.request("GET", "/api/v1/dashboards/demo?key=\(secret)").status == .ok)
            #expect(try live.request("GET", "/api/v1/dashboards/story?key=\(secret)").status == .forbidden)
            let used = try pair(live, #"{"code":"\#(code)","name":"Other","show":{"dashboard":"story"}}"#)
            #expect(used.status == .notFound && used.errorCode == "unknown_code", "single-use")
        }
    }

    @Test("a TV paired to a playlist gets a key that opens every dashboard of it and its page is the playlist's")
    func playlist() throws {
        let wall = "entries:\n  - {dashboard: demo}\n  - {dashboard: story}\n"
        try withLiveServer(dashboardAccess: .viewerKey, extraFiles: [("playlists/wall.yaml", wall)]) { live in
            let (code, pollToken) = try tvCode(live)
            let paired = try pair(
                live, #"{"code":"\#(code)","name":"Hall","show":{"playlist":"wall"},"theme":"light"}"#)
            #expect(paired.status == .created)
            #expect(try jsonObject(paired.body)["url"] as? String == "/p/wall?name=Hall&theme=light")
            let handed = try jsonObject(try live.request("GET", "/api/v1/tv/pairings/\(pollToken)").body)
            let secret = try #require(handed["key"] as? String)
            for dashboard in ["demo", "story"] {
                #expect(try live.request("GET", "/api/v1/dashboards/\(dashboard)?key=\(secret)").status == .ok)
            }
        }
    }

    @Test("a code expires after 10 minutes on the node's clock: its TV polls 404 and asks again")
    func expiry() throws {
        let clock = ManualClock(at: 1_800_000_000)
        try withLiveServer(clock: clock) { live in
            let (code, pollToken) = try tvCode(live)
            clock.step(to: 1_800_000_000 + PairingCodes.Defaults.lifetime)
            #expect(try live.request("GET", "/api/v1/tv/pairings/\(pollToken)").status == .notFound)
            let late = try pair(live, #"{"code":"\#(code)","name":"TV","show":{"dashboard":"demo"}}"#)
            #expect(late.status == .notFound && late.errorCode == "unknown_code")
            #expect(late.detail?.hasPrefix("code:") == true)
        }
    }

    @Test("wrong codes past the per-address limit are 429 with Retry-After; before it, 404 naming code")
    func guessing() throws {
        try withLiveServer { live in
            let (code, _) = try tvCode(live)
            let wrong = code == "333333" ? "444444" : "333333"
            for _ in 0..<PairingCodes.Defaults.failedClaimsPerAddress {
                let response = try pair(live, #"{"code":"\#(wrong)","name":"TV","show":{"dashboard":"demo"}}"#)
                #expect(response.status == .notFound && response.detail?.hasPrefix("code:") == true)
            }
            let limited = try pair(live, #"{"code":"\#(code)","name":"TV","show":{"dashboard":"demo"}}"#)
            #expect(limited.status == .tooManyRequests && limited.errorCode == "rate_limited")
            #expect(Int(limited.headers["Retry-After"] ?? "") ?? 0 > 0)
        }
    }

    @Test(
        "a bad pairing request gets its precise error, naming the field",
        arguments: [
            (#"{"name":"TV","show":{"dashboard":"demo"}}"#, 400, "missing_field", "code"),
            (#"{"code":7,"name":"TV","show":{"dashboard":"demo"}}"#, 400, "wrong_type", "code"),
            (#"{"code":"ACDEFG","show":{"dashboard":"demo"}}"#, 400, "missing_field", "name"),
            (#"{"code":"ACDEFG","name":"TV"}"#, 400, "missing_field", "show"),
            (#"{"code":"ACDEFG","name":"TV","show":{"dashboard":"nope"}}"#, 422, "invalid_value", "show.dashboard"),
            (#"{"code":"ACDEFG","name":"TV","show":{"playlist":"nope"}}"#, 422, "invalid_value", "show.playlist"),
            (#"{"code":"ACDEFG","name":"TV","show":{"dashboard":"demo","playlist":""}}"#, 422, "invalid_value", "show"),
            (#"{"code":"ACDEFG","name":"TV","show":{"screen":"demo"}}"#, 400, "unknown_field", "show.screen"),
            (#"{"code":"ACDEFG","name":"TV","show":{"dashboard":"demo"},"theme":"red"}"#, 400, "wrong_type", "theme"),
            (#"{"code":"ACDEFG","name":"TV","show":{"dashboard":"demo"},"kiosk":"yes"}"#, 400, "wrong_type", "kiosk"),
        ])
    func badRequests(body: String, status: Int, code: String, field: String) throws {
        try withLiveServer { live in
            let response = try pair(live, body)
            #expect(response.status.code == status)
            #expect(response.errorCode == code)
            #expect(response.detail?.contains(field) == true, "\(response.detail ?? "")")
        }
    }

    private func resume(_ live: LiveServer, _ body: String) throws -> HTTPResponse {
        try live.request("POST", "/api/v1/tv/resume", body: Array(body.utf8), contentType: "application/json")
    }

    @Test("a TV reassigned while it was off resumes at its new page, on any kept page; a revoked key resumes nowhere")
    func resumeAfterReassignment() throws {
        try withLiveServer(dashboardAccess: .viewerKey) { live in
            let (code, pollToken) = try tvCode(live)
            _ = try pair(live, #"{"code":"\#(code)","name":"Lobby TV","show":{"dashboard":"demo"},"kiosk":true}"#)
            let handed = try jsonObject(try live.request("GET", "/api/v1/tv/pairings/\(pollToken)").body)
            let secret = try #require(handed["key"] as? String)
            let kept = try #require(handed["url"] as? String)
            let before = try resume(live, #"{"key":"\#(secret)","url":"\#(kept)"}"#)
            #expect(before.status == .ok)
            #expect(try jsonObject(before.body)["url"] as? String == kept, "not moved: its page")
            let derived = try resume(live, #"{"key":"\#(secret)"}"#)
            #expect(try jsonObject(derived.body)["url"] as? String == "/d/demo?name=Lobby%20TV&key=\(secret)")

            let assign = #"{"show":{"dashboard":"story"},"theme":"dark"}"#
            let moved = try live.request(
                "POST", "/api/v1/admin/screens/Lobby%20TV/assign", body: Array(assign.utf8),
                token: LiveServer.adminToken,
                contentType: "application/json")
            #expect(moved.status == .accepted, "\(moved.text)")
            let after = try resume(live, #"{"key":"\#(secret)","url":"\#(kept)"}"#)
            #expect(after.status == .ok && after.headers["Cache-Control"] == "no-store")
            #expect(try jsonObject(after.body)["url"] as? String == "/d/story?name=Lobby%20TV&theme=dark&key=\(secret)")

            let keyID = try #require(handed["keyId"] as? String)
            #expect(
                try live.request("DELETE", "/api/v1/admin/keys/\(keyID)", token: LiveServer.adminToken).status == .ok)
            let revoked = try resume(live, #"{"key":"\#(secret)","url":"\#(kept)"}"#)
            #expect(revoked.status == .notFound && revoked.errorCode == "unknown_key")
        }
    }

    @Test("a TV on a playlist whose kept page is gone resumes at the playlist its key opens, with its theme and kiosk")
    func resumeBuiltFromTheKey() throws {
        let wall = "entries:\n  - {dashboard: demo}\n  - {dashboard: story}\n"
        try withLiveServer(dashboardAccess: .viewerKey, extraFiles: [("playlists/wall.yaml", wall)]) { live in
            let (code, pollToken) = try tvCode(live)
            _ = try pair(live, #"{"code":"\#(code)","name":"Hall","show":{"playlist":"wall"}}"#)
            let handed = try jsonObject(try live.request("GET", "/api/v1/tv/pairings/\(pollToken)").body)
            let secret = try #require(handed["key"] as? String)
            let stale = "/d/gone?name=Hall&theme=light&kiosk&key=\(secret)"
            let resumed = try resume(live, #"{"key":"\#(secret)","url":"\#(stale)"}"#)
            let url = try jsonObject(resumed.body)["url"] as? String
            #expect(url == "/p/wall?name=Hall&theme=light&kiosk&key=\(secret)")
        }
    }

    @Test(
        "past 10 unknown keys a minute from an address, every resume is 429 with Retry-After until the window ends",
        arguments: [(30.0, true), (60.0, false)])
    func resumeLimit(after seconds: Double, refused: Bool) throws {
        let clock = ManualClock(at: 1_800_000_000)
        try withLiveServer(clock: clock) { live in
            let (code, pollToken) = try tvCode(live)
            _ = try pair(live, #"{"code":"\#(code)","name":"Lobby TV","show":{"dashboard":"demo"}}"#)
            let handed = try jsonObject(try live.request("GET", "/api/v1/tv/pairings/\(pollToken)").body)
            let secret = try #require(handed["key"] as? String)
            for guess in 0..<ResumeHandler.Defaults.failedPerAddress {
                let unknown = try resume(live, #"{"key":"rbv_guess\#(guess)"}"#)
                #expect(unknown.status == .notFound && unknown.errorCode == "unknown_key")
            }
            let limited = try resume(live, #"{"key":"\#(secret)"}"#)
            #expect(limited.status == .tooManyRequests && limited.errorCode == "too_many_resumes", "the right key too")
            #expect(limited.headers["Retry-After"] == "60")
            clock.step(to: 1_800_000_000 + seconds)
            let later = try resume(live, #"{"key":"\#(secret)"}"#)
            #expect(later.status == (refused ? .tooManyRequests : .ok), "\(later.text)")
            if refused { #expect(later.headers["Retry-After"] == "30") }
        }
    }

    @Test(
        "a bad resume request gets its precise error, naming the field",
        arguments: [
            (#"{}"#, "missing_field", "key"), (#"{"key":7}"#, "wrong_type", "key"),
            (#"{"key":"rbv_x","url":7}"#, "wrong_type", "url"),
            (#"{"key":"rbv_x","page":"/"}"#, "unknown_field", "page"),
        ])
    func badResume(body: String, code: String, field: String) throws {
        try withLiveServer { live in
            let response = try resume(live, body)
            #expect(response.status == .badRequest && response.errorCode == code)
            #expect(response.detail?.contains(field) == true, "\(response.detail ?? "")")
        }
    }

    @Test("the TV's pairing page is served at /tv")
    func page() throws {
        try withLiveServer { live in
            let response = try live.request("GET", "/tv")
            #expect(response.status == .ok && response.text.contains(#"src="/js/tv.js""#))
        }
    }
}
