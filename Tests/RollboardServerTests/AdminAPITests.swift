import Foundation
import RollboardClient
import RollboardNet
import RollboardTestSupport
import Testing

@testable import RollboardCore
@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardMetrics
@testable import RollboardAccess
@testable import RollboardHub
@testable import RollboardSources
@testable import RollboardAPI
@testable import RollboardServer

/// The admin API and viewer keys through the real TLS server, with every shipped dashboard behind a key.
@Suite("AdminAPI")
struct AdminAPITests {
    /// Creates a key through the admin API; its id and secret.
    private func createKey(_ live: LiveServer, _ body: String) throws -> (id: String, secret: String) {
        let response = try live.request(
            "POST", "/api/v1/admin/keys", body: Array(body.utf8), token: LiveServer.adminToken,
            contentType: "application/json")
        guard response.status == .created else { throw LiveServerError("create: \(response.status.code) \(response.text)") }
        let json = try jsonObject(response.body)
        return (try #require(json["id"] as? String), try #require(json["key"] as? String))
    }

    @Test("an admin creates a key shown once, lists it without its secret, and revokes it")
    func lifecycle() throws {
        try withLiveServer(dashboardAccess: .viewerKey) { live in
            let (id, secret) = try createKey(live, #"{"name":"lobby TV","dashboards":["demo"]}"#)
            let list = try live.request("GET", "/api/v1/admin/keys", token: LiveServer.adminToken)
            #expect(list.status == .ok)
            #expect(list.text.contains(#""id":"\#(id)","name":"lobby TV","dashboards":["demo"]"#))
            #expect(list.text.contains(#""screens":0"#))
            #expect(!list.text.contains(secret))
            let revoked = try live.request("DELETE", "/api/v1/admin/keys/\(id)", token: LiveServer.adminToken)
            #expect(revoked.text == #"{"id":"\#(id)","revoked":true,"closedScreens":0}"#)
            let again = try live.request("DELETE", "/api/v1/admin/keys/\(id)", token: LiveServer.adminToken)
            #expect(again.status == .notFound && again.errorCode == "unknown_key")
        }
    }

    @Test(
        "admin requests without the admin token are refused: none or unknown 401, a producer token 403",
        arguments: [(nil as String?, 401), ("not-a-token-at-all-12345", 401), (LiveServer.token, 403)])
    func adminOnly(token: String?, status: Int) throws {
        try withLiveServer { live in
            let list = try live.request("GET", "/api/v1/admin/keys", token: token)
            #expect(list.status.code == status)
            let create = try live.request(
                "POST", "/api/v1/admin/keys", body: Array(#"{"name":"x"}"#.utf8), token: token,
                contentType: "application/json")
            #expect(create.status.code == status)
        }
    }

    @Test(
        "a bad key request gets its precise error",
        arguments: [
            (#"{}"#, 400, "missing_field"),
            (#"{"name":3}"#, 400, "wrong_type"),
            (#"{"name":""}"#, 422, "invalid_value"),
            ("{\"name\":\"a" + String(repeating: "\u{301}", count: 500) + "\"}", 422, "invalid_value"),
            (#"{"name":"lobby\u001b[31m"}"#, 422, "invalid_value"),
            (#"{"name":"\u200b \u200b"}"#, 422, "invalid_value"),
            (#"{"name":"x","dashboards":["nope"]}"#, 422, "invalid_value"),
            (#"{"name":"x","dashboards":[]}"#, 422, "invalid_value"),
            (#"{"name":"x","dashboards":"demo"}"#, 400, "wrong_type"),
            (#"{"name":"x","colour":"red"}"#, 400, "unknown_field"),
            (#"{"name":"x""#, 400, "malformed_json"),
        ])
    func badRequests(body: String, status: Int, code: String) throws {
        try withLiveServer { live in
            let response = try live.request(
                "POST", "/api/v1/admin/keys", body: Array(body.utf8), token: LiveServer.adminToken,
                contentType: "application/json")
            #expect(response.status.code == status)
            #expect(response.errorCode == code)
            let list = try live.request("GET", "/api/v1/admin/keys", token: LiveServer.adminToken)
            #expect(list.text == #"{"keys":[]}"#)
        }
    }

    @Test("a dashboard behind a key: the page, the WebSocket and the reads open to the key and refuse without it")
    func keyOpensDashboard() throws {
        try withLiveServer(dashboardAccess: .viewerKey) { live in
            let (_, secret) = try createKey(live, #"{"name":"demo only","dashboards":["demo"]}"#)
            let otherSecret = "rbv_" + String(repeating: "0", count: 64)

            let html = "text/html"
            #expect(try live.request("GET", "/d/demo", accept: html).status == .unauthorized)
            #expect(try live.request("GET", "/d/demo?key=\(otherSecret)", accept: html).status == .forbidden)
            let page = try live.request("GET", "/d/demo?key=\(secret)", accept: html)
            #expect(page.status == .ok)
            #expect(page.headers.values(for: "Referrer-Policy") == ["no-referrer"], "once, not twice")

            let refused = try Screen(live.webSocket("/ws?dashboard=demo"))
            #expect(try refused.closing() == (1008, "viewer key required"))
            let wrong = try Screen(live.webSocket("/ws?dashboard=demo&key=\(otherSecret)"))
            #expect(try wrong.closing() == (1008, "viewer key refused"))
            let screen = try Screen(live.webSocket("/ws?dashboard=demo&key=\(secret)"))
            #expect(try screen.hello()["protocol"] as? Int == 2)

            #expect(try live.post("/api/v1/metrics/revenue", #"{"value":5}"#).status == .accepted)
            #expect(try live.request("GET", "/api/v1/metrics/revenue").status == .unauthorized)
            #expect(try live.request("GET", "/api/v1/metrics/revenue?key=\(otherSecret)").status == .forbidden)
            #expect(try live.request("GET", "/api/v1/metrics/revenue?key=\(secret)").status == .ok)
            #expect(try live.request("GET", "/api/v1/metrics/revenue", token: secret).status == .ok)
            #expect(try live.request("GET", "/api/v1/metrics/revenue", token: LiveServer.token).status == .ok)
            let listed = try live.request("GET", "/api/v1/metrics")
            #expect(listed.status == .ok && !listed.text.contains("revenue"))
            #expect(try live.request("GET", "/api/v1/dashboards").text == #"{"dashboards":[],"playlists":[]}"#)
            #expect(try live.request("GET", "/api/v1/dashboards?key=\(secret)").text.hasPrefix(#"{"dashboards":[{"id":"demo""#))
        }
    }

    @Test("revoking a key closes the screens open with it with 1008 at once; other screens carry on")
    func revokeClosesScreens() throws {
        try withLiveServer(dashboardAccess: .viewerKey) { live in
            let (id, secret) = try createKey(live, #"{"name":"wall"}"#)
            let (_, otherSecret) = try createKey(live, #"{"name":"kept"}"#)
            let first = try Screen(live.webSocket("/ws?dashboard=demo&key=\(secret)"))
            let second = try Screen(live.webSocket("/ws?dashboard=demo&key=\(secret)"))
            let other = try Screen(live.webSocket("/ws?dashboard=demo&key=\(otherSecret)"))
            for screen in [first, second, other] { _ = try screen.hello() }
            let listed = try live.request("GET", "/api/v1/admin/keys", token: LiveServer.adminToken)
            #expect(listed.text.contains(#""name":"wall","dashboards":null"#))

            let revoked = try live.request("DELETE", "/api/v1/admin/keys/\(id)", token: LiveServer.adminToken)
            #expect(revoked.text == #"{"id":"\#(id)","revoked":true,"closedScreens":2}"#)
            #expect(try first.closing() == (1008, "viewer key revoked"))
            #expect(try second.closing() == (1008, "viewer key revoked"))

            #expect(try live.post("/api/v1/metrics/revenue", #"{"value":7,"animated":false}"#).status == .accepted)
            let frames = try other.frames { ($0["tiles"] as? [String: Any])?["revenue"] != nil }
            #expect(!frames.isEmpty)
            let again = try Screen(live.webSocket("/ws?dashboard=demo&key=\(secret)"))
            #expect(try again.closing() == (1008, "viewer key refused"))
            #expect(try live.request("GET", "/d/demo?key=\(secret)", accept: "text/html").status == .forbidden)
        }
    }

    @Test("keys survive a restart of the server on the same data folder")
    func keysSurviveRestart() throws {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        let secret: String
        do {
            let live = try LiveServer(dataDirectory: folder.path, dashboardAccess: .viewerKey)
            defer { live.stop() }
            secret = try createKey(live, #"{"name":"kept"}"#).secret
        }
        let live = try LiveServer(dataDirectory: folder.path, dashboardAccess: .viewerKey)
        defer { live.stop() }
        #expect(try live.request("GET", "/d/demo?key=\(secret)").status == .ok)
        let screen = try Screen(live.webSocket("/ws?dashboard=demo&key=\(secret)"))
        #expect(try screen.hello()["type"] as? String == "hello")
    }
}

extension Screen {
    /// Reads past frames until a message of `type` arrives; fails after `seconds`.
    func awaitMessage(_ type: String, within seconds: Double = 4) throws -> [String: Any] {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while ContinuousClock.now < deadline {
            let message = try next()
            if message["type"] as? String == type { return message }
        }
        throw LiveServerError("no \(type) message within \(seconds) s")
    }
}

/// Screens listed and controlled through the admin API on the real TLS server.
@Suite("AdminAPI screens")
struct AdminAPIScreensTests {
    private func adminPost(_ live: LiveServer, _ path: String, _ body: String? = nil) throws -> HTTPResponse {
        try live.request(
            "POST", path, body: Array((body ?? "").utf8), token: LiveServer.adminToken,
            contentType: body == nil ? nil : "application/json")
    }

    private func screens(_ live: LiveServer) throws -> [[String: Any]] {
        let response = try live.request("GET", "/api/v1/screens", token: LiveServer.adminToken)
        guard response.status == .ok else { throw LiveServerError("screens: \(response.status.code) \(response.text)") }
        return try jsonObject(response.body)["screens"] as? [[String: Any]] ?? []
    }

    /// Polls the list until `count` screens are in it.
    private func screens(_ live: LiveServer, count: Int) throws -> [[String: Any]] {
        var listed: [[String: Any]] = []
        _ = try eventuallyBlocking(within: 4) {
            listed = try screens(live)
            return listed.count == count
        }
        return listed
    }

    @Test("the list of screens names each one, its address, browser, dashboard, rate and skipped frames; admins only")
    func listsScreens() throws {
        try withLiveServer { live in
            var headers: HTTPHeaders = [:]
            headers.add(name: "User-Agent", value: "LobbyTV/1.0 (test)")
            let lobby = try Screen(live.webSocket("/ws?dashboard=demo&name=Lobby%20TV&fps=10", headers: headers))
            let other = try Screen(live.webSocket("/ws?dashboard=demo&name=%0A%20"))
            _ = try lobby.hello()
            _ = try other.hello()
            let listed = try screens(live, count: 2)
            #expect(listed.count == 2)
            let first = try #require(listed.first)
            #expect(first["dashboard"] as? String == "demo")
            #expect(first["name"] as? String == "Lobby TV")
            #expect(first["address"] as? String == "127.0.0.1")
            #expect(first["userAgent"] as? String == "LobbyTV/1.0 (test)")
            #expect(first["fps"] as? Int == 10)
            #expect(first["paused"] as? Bool == false)
            #expect(first["framesSkipped"] as? Int == 0)
            #expect((first["connectedAt"] as? String)?.hasSuffix("Z") == true)
            #expect(listed.last?["name"] is NSNull, "a name of blanks and control characters is no name")
            #expect(listed.last?["fps"] as? Int == 30)

            #expect(try live.request("GET", "/api/v1/screens").status == .unauthorized)
            #expect(try live.request("GET", "/api/v1/screens", token: LiveServer.token).status == .forbidden)

            other.socket.disconnect()
            #expect(try screens(live, count: 1).map { $0["name"] as? String } == ["Lobby TV"])
        }
    }

    @Test("reload and an announcement are sequenced changes that reach every screen; a screen that joins gets it")
    func reloadAndAnnounce() throws {
        // The node runs by a manual clock: what is left of an announcement is exact, not a window of real time.
        let clock = ManualClock(at: 1_800_000_000)
        try withLiveServer(clock: clock) { live in
            let first = try Screen(live.webSocket("/ws?dashboard=demo"))
            let second = try Screen(live.webSocket("/ws?dashboard=demo&fps=5"))
            _ = try first.hello()
            _ = try second.hello()
            _ = try screens(live, count: 2)

            let reload = try adminPost(live, "/api/v1/admin/dashboards/demo/reload")
            #expect(reload.status == .accepted)
            let reloadSeq = try #require(try jsonObject(reload.body)["seq"] as? Int)
            #expect(reload.text == #"{"dashboard":"demo","screens":2,"seq":\#(reloadSeq)}"#)
            #expect(live.changeLog.lastSeq == UInt64(reloadSeq))
            _ = try first.awaitMessage("reload")
            _ = try second.awaitMessage("reload")

            let announce = try adminPost(
                live, "/api/v1/admin/dashboards/demo/announce", #"{"text":"Fire drill at 3 pm","seconds":20}"#)
            #expect(announce.text == #"{"dashboard":"demo","screens":2,"seconds":20,"seq":\#(reloadSeq + 1)}"#)
            for screen in [first, second] {
                let message = try screen.awaitMessage("announce")
                #expect(message["text"] as? String == "Fire drill at 3 pm")
                #expect(message["seconds"] as? Double == 20, "all 20 s: no time passed on the node's clock")
            }
            clock.advance(to: 1_800_000_004.5)
            let late = try Screen(live.webSocket("/ws?dashboard=demo"))
            _ = try late.hello()
            let joined = try late.awaitMessage("announce")
            #expect(joined["text"] as? String == "Fire drill at 3 pm")
            #expect(joined["seconds"] as? Double == 15.5, "a screen that joins 4.5 s later is shown what is left")

            #expect(try adminPost(live, "/api/v1/admin/dashboards/nope/reload").status == .notFound)
            for (body, status) in [
                (#"{"seconds":5}"#, 400), (#"{"text":""}"#, 422), (#"{"text":"x","seconds":-1}"#, 422),
                (#"{"text":"x","seconds":"5"}"#, 400), (#"{"text":"x","colour":1}"#, 400),
                (#"{"seconds":0}"#, 202), (#"{"seconds":0,"text":""}"#, 202), (#"{"seconds":0,"text":7}"#, 400),
                ("{\"text\":\"a" + String(repeating: "\u{301}", count: 3000) + "\"}", 422),
                (#"{"text":"\u0007"}"#, 422), (#"{"text":"\u200b"}"#, 422),
            ] {
                #expect(try adminPost(live, "/api/v1/admin/dashboards/demo/announce", body).status.code == status, "\(body)")
            }
            #expect(try live.request("POST", "/api/v1/admin/dashboards/demo/reload", token: LiveServer.token).status == .forbidden)
        }
    }

    @Test("identify reaches only the screen named, with its name")
    func identify() throws {
        try withLiveServer { live in
            let lobby = try Screen(live.webSocket("/ws?dashboard=demo&name=Lobby%20TV"))
            let other = try Screen(live.webSocket("/ws?dashboard=demo&name=Kitchen"))
            _ = try lobby.hello()
            _ = try other.hello()
            let listed = try screens(live, count: 2)
            let id = try #require(listed.first { $0["name"] as? String == "Lobby TV" }?["id"] as? Int)
            let answer = try adminPost(live, "/api/v1/admin/screens/\(id)/identify", #"{"seconds":3}"#)
            #expect(answer.text == #"{"screen":\#(id),"name":"Lobby TV","seconds":3}"#)
            let message = try lobby.awaitMessage("identify")
            #expect(message["name"] as? String == "Lobby TV")
            #expect(message["seconds"] as? Double == 3)
            _ = try adminPost(live, "/api/v1/admin/dashboards/demo/reload")
            var kitchen: [String] = []
            while kitchen.last != "reload" { kitchen.append(try other.next()["type"] as? String ?? "") }
            #expect(!kitchen.contains("identify"), "the kitchen screen got \(kitchen)")
            #expect(try adminPost(live, "/api/v1/admin/screens/999/identify").status == .notFound)
            #expect(try adminPost(live, "/api/v1/admin/screens/\(id)/identify", #"{"seconds":0}"#).status.code == 422)
        }
    }

    @Test("each listed screen says this node's name and the id of the viewer key it connected with, or null")
    func nodeAndKey() throws {
        try withLiveServer(dashboardAccess: .viewerKey) { live in
            let created = try adminPost(live, "/api/v1/admin/keys", #"{"name":"Hall TV","dashboards":["demo"]}"#)
            let key = try jsonObject(created.body)
            let (id, secret) = (try #require(key["id"] as? String), try #require(key["key"] as? String))
            let keyed = try Screen(live.webSocket("/ws?dashboard=demo&name=Hall&key=\(secret)"))
            let bearer = try Screen(
                live.webSocket("/ws?dashboard=demo&name=Desk", headers: ["Authorization": "Bearer \(LiveServer.adminToken)"]))
            _ = try keyed.hello()
            _ = try bearer.hello()
            let listed = try screens(live, count: 2)
            #expect(listed.map { $0["keyId"] as? String } == [id, nil])
            #expect(listed.allSatisfy { $0["node"] as? String == RollboardNode.nodeName(port: 0) })
            #expect(RollboardNode.nodeName(port: 8443).hasSuffix(":8443") && !RollboardNode.nodeName(port: 0).isEmpty)
        }
    }

    @Test(
        "a reload or identify by a screen's name (or a named screen's id) is sequenced and reaches that name's screens only",
        arguments: ["reload", "identify"])
    func commandsByName(command: String) throws {
        try withLiveServer(clock: ManualClock(at: 1_800_000_000)) { live in
            let halls = try [Screen(live.webSocket("/ws?dashboard=demo&name=Hall")), Screen(live.webSocket("/ws?dashboard=demo&name=Hall"))]
            let kitchen = try Screen(live.webSocket("/ws?dashboard=demo&name=Kitchen"))
            let nameless = try Screen(live.webSocket("/ws?dashboard=demo"))
            for screen in halls + [kitchen, nameless] { _ = try screen.hello() }
            let listed = try screens(live, count: 4)
            let body = command == "identify" ? #"{"seconds":3}"# : nil
            let answer = try adminPost(live, "/api/v1/admin/screens/Hall/\(command)", body)
            let seq = live.changeLog.lastSeq
            let seconds = command == "identify" ? #""seconds":3,"# : ""
            #expect(answer.status == .accepted && answer.text == #"{"screen":"Hall","screens":2,\#(seconds)"seq":\#(seq)}"#)
            for hall in halls {
                let message = try hall.awaitMessage(command)
                if command == "identify" { #expect(message["name"] as? String == "Hall" && message["seconds"] as? Double == 3) }
            }
            let hallID = try #require(listed.first { $0["name"] as? String == "Hall" }?["id"] as? Int)
            let byID = try adminPost(live, "/api/v1/admin/screens/\(hallID)/reload")
            #expect(byID.status == .accepted && byID.text.hasPrefix(#"{"screen":"Hall","screens":2,"#))
            let namelessID = try #require(listed.first { $0["name"] is NSNull }?["id"] as? Int)
            #expect(try adminPost(live, "/api/v1/admin/screens/\(namelessID)/reload").status.code == 422)
            #expect(try adminPost(live, "/api/v1/admin/screens/a%0Ab/reload").status.code == 422)
            _ = try adminPost(live, "/api/v1/admin/dashboards/demo/announce", #"{"text":"end","seconds":1}"#)
            var heard: [String] = []
            while heard.last != "announce" { heard.append(try kitchen.next()["type"] as? String ?? "") }
            #expect(!heard.contains(command), "the kitchen got \(heard)")
        }
    }
}
