import Foundation
import RollboardClient
import RollboardNet
import Testing

@testable import RollboardCore
@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardAccess
@testable import RollboardHub
@testable import RollboardSources
@testable import RollboardAPI
@testable import RollboardServer

/// Playlists end to end through the real TLS server: two one-second entries, screens on `/ws?playlist=wall`. The
/// driver on an explicit clock is in ``PlaylistDriverTests``; the logic in ``PlaylistStateMachineTests``.
@Suite("PlaylistHub")
struct PlaylistHubTests {
    static let files: [(path: String, text: String)] = [
        ("dashboards/second.yaml", "id: second\ntitle: Second\ntiles:\n  - {id: tickets, type: counter}\n"),
        (
            "playlists/wall.yaml",
            "id: wall\ntitle: Lobby wall\nentries:\n  - {dashboard: demo, seconds: 1}\n  - {dashboard: second, seconds: 1}\n"
        ),
    ]

    /// A screen's playlist messages and the hellos after them.
    final class Follower {
        let screen: Screen
        var switches: [(entry: Int, dashboard: String?)] = []

        init(_ screen: Screen) { self.screen = screen }

        /// Reads until `count` playlist messages, each followed by its dashboard's hello, have arrived.
        func read(switches count: Int, within seconds: Double = 8) throws {
            let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
            while switches.count < count || switches.last?.dashboard == nil {
                guard ContinuousClock.now < deadline else { throw LiveServerError("only \(switches) within \(seconds) s") }
                let message = try screen.next()
                switch message["type"] as? String {
                case "playlist":
                    switches.append((message["current"] as? Int ?? -1, nil))
                case "hello":
                    let id = (message["dashboard"] as? [String: Any])?["id"] as? String
                    if let last = switches.indices.last { switches[last].dashboard = id }
                default:
                    break
                }
            }
        }
    }

    @Test("a screen on a playlist reads the dashboard of each entry in turn, each hello after its playlist message")
    func screensFollowTheRotation() throws {
        try withLiveServer(extraFiles: Self.files) { live in
            let follower = Follower(try Screen(live.webSocket("/ws?playlist=wall")))
            try follower.read(switches: 3)
            for item in follower.switches {
                #expect(item.dashboard == (item.entry == 0 ? "demo" : "second"), "\(follower.switches)")
            }
            #expect(Set(follower.switches.map(\.entry)) == [0, 1], "the rotation moved on: \(follower.switches)")
        }
    }

    @Test("an admin holds, shows, resumes and reloads; the state is listed; a joining screen lands on the current entry")
    func remoteControl() throws {
        try withLiveServer(extraFiles: Self.files) { live in
            func post(_ path: String, _ body: String? = nil) throws -> [String: Any] {
                let response = try live.request(
                    "POST", path, body: Array((body ?? "").utf8), token: LiveServer.adminToken,
                    contentType: body == nil ? nil : "application/json")
                guard response.status == .accepted else { throw LiveServerError("\(path): \(response.status.code) \(response.text)") }
                return try jsonObject(response.body)
            }
            let held = try post("/api/v1/admin/playlists/wall/hold")
            #expect(held["held"] as? Bool == true)
            let shown = try post("/api/v1/admin/playlists/wall/show", #"{"entry":1}"#)
            #expect(shown["current"] as? Int == 1 && shown["held"] as? Bool == true)
            let follower = Follower(try Screen(live.webSocket("/ws?playlist=wall")))
            try follower.read(switches: 1)
            #expect(follower.switches.first?.dashboard == "second", "a joining screen lands on the held entry")
            let listed = try live.request("GET", "/api/v1/admin/playlists", token: LiveServer.adminToken)
            #expect(listed.text.contains(#""id":"wall","title":"Lobby wall""#))
            #expect(listed.text.contains(#""current":1,"held":true,"screens":1"#))

            let resumed = try post("/api/v1/admin/playlists/wall/resume")
            #expect(resumed["held"] as? Bool == false)
            try follower.read(switches: 3)
            #expect(follower.switches.map(\.dashboard).contains("demo"), "the rotation goes on after resume")

            let before = live.changeLog.lastSeq
            let reloaded = try post("/api/v1/admin/playlists/wall/reload")
            #expect(reloaded["id"] as? String == "wall")
            #expect(live.changeLog.lastSeq == before + 1, "a reload is a change in the one sequence")
            _ = try follower.screen.awaitMessage("reload")

            let screens = try live.request("GET", "/api/v1/screens", token: LiveServer.adminToken)
            #expect(screens.text.contains(#""playlist":"wall""#))
            for (body, status) in [(#"{"entry":2}"#, 422), (#"{}"#, 400), (#"{"entry":"1"}"#, 400)] {
                let response = try live.request(
                    "POST", "/api/v1/admin/playlists/wall/show", body: Array(body.utf8), token: LiveServer.adminToken,
                    contentType: "application/json")
                #expect(response.status.code == status, "\(body)")
            }
            #expect(try live.request("POST", "/api/v1/admin/playlists/nope/hold", token: LiveServer.adminToken).status == .notFound)
            #expect(try live.request("GET", "/p/wall", accept: "text/html").status == .ok)
            #expect(try live.request("GET", "/p/nope", accept: "text/html").status == .notFound)
            let unknown = try Screen(live.webSocket("/ws?playlist=nope"))
            #expect(try unknown.closeCode() == 4404)
        }
    }
}
