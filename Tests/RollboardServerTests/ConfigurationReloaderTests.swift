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

/// Reloading `config/` on the real TLS server, through `POST /api/v1/admin/reload`.
@Suite("ConfigurationReloader")
struct ConfigurationReloaderTests {
    static let second = "id: second\ntitle: Second\ntiles:\n  - {id: tickets, type: counter}\n"

    private func write(_ live: LiveServer, _ path: String, _ text: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: live.configDirectory + "/" + path))
    }

    private func reload(_ live: LiveServer) throws -> HTTPResponse {
        try live.request("POST", "/api/v1/admin/reload", token: LiveServer.adminToken)
    }

    @Test("a changed dashboard sends its screens a fresh hello; the other dashboards' screens notice nothing")
    func changedDashboard() throws {
        try withLiveServer(extraFiles: [("dashboards/second.yaml", Self.second)]) { live in
            let changed = try Screen(live.webSocket("/ws?dashboard=second"))
            let untouched = try Screen(live.webSocket("/ws?dashboard=demo"))
            _ = try changed.hello()
            _ = try untouched.hello()
            try write(live, "dashboards/second.yaml", Self.second.replacingOccurrences(of: "title: Second", with: "title: Tickets today"))
            let answer = try reload(live)
            #expect(answer.status == .ok)
            #expect(answer.text.contains(#""changed":["second"]"#), "\(answer.text)")
            let hello = try changed.awaitMessage("hello")
            #expect((hello["dashboard"] as? [String: Any])?["title"] as? String == "Tickets today")
            #expect(throws: LiveServerError.self, "no hello for an unchanged dashboard") {
                _ = try untouched.awaitMessage("hello", within: 1.5)
            }
            let read = try live.request("GET", "/api/v1/dashboards/second")
            #expect(read.text.contains(#""title":"Tickets today""#))
        }
    }

    @Test("a broken file is refused with its file, tile and field, and the configuration in force stays")
    func brokenFileKeepsOld() throws {
        try withLiveServer(extraFiles: [("dashboards/second.yaml", Self.second)]) { live in
            let screen = try Screen(live.webSocket("/ws?dashboard=second"))
            _ = try screen.hello()
            try write(live, "dashboards/second.yaml", "id: second\ntitle: Broken\ntiles:\n  - {id: tickets, type: counter, duration: -4}\n")
            let answer = try reload(live)
            #expect(answer.status.code == 422)
            #expect(answer.errorCode == "configuration_refused")
            #expect(answer.text.contains(#"second.yaml: tile \"tickets\": duration"#), "\(answer.text)")
            #expect(try live.request("GET", "/api/v1/dashboards/second").text.contains(#""title":"Second""#))
            #expect(try live.post("/api/v1/metrics/tickets", #"{"value":3}"#).status.code == 202)
            let frames = try screen.frames { ($0["tiles"] as? [String: Any])?["tickets"] != nil }
            #expect(!frames.isEmpty, "the screen stays and still moves")
        }
    }

    @Test("a removed dashboard closes its screens with 4404; added dashboards and playlists start; restart-only settings are named")
    func removedAndAdded() throws {
        try withLiveServer(extraFiles: [("dashboards/second.yaml", Self.second)]) { live in
            let removed = try Screen(live.webSocket("/ws?dashboard=second"))
            _ = try removed.hello()
            try FileManager.default.removeItem(atPath: live.configDirectory + "/dashboards/second.yaml")
            try write(live, "dashboards/third.yaml", Self.second.replacingOccurrences(of: "second", with: "third"))
            try FileManager.default.createDirectory(
                atPath: live.configDirectory + "/playlists", withIntermediateDirectories: true)
            try write(live, "playlists/wall.yaml", "entries:\n  - {dashboard: demo}\n  - {dashboard: third}\n")
            let server = try String(contentsOfFile: live.configDirectory + "/server.yaml", encoding: .utf8)
            try write(live, "server.yaml", server.replacingOccurrences(of: "port: 8443", with: "port: 9443"))
            let answer = try reload(live)
            #expect(answer.status == .ok)
            #expect(answer.text.contains(#""added":["third"],"changed":[],"removed":["second"],"addedPlaylists":["wall"]"#), "\(answer.text)")
            #expect(answer.text.contains(#""needsRestart":["port"]"#), "\(answer.text)")
            #expect(try removed.closeCode() == 4404)
            let added = try Screen(live.webSocket("/ws?playlist=wall"))
            #expect(try added.awaitMessage("playlist")["id"] as? String == "wall")
            #expect(try live.request("GET", "/d/third", accept: "text/html").status == .ok)
            #expect(try live.request("GET", "/d/second", accept: "text/html").status == .notFound)
            #expect(try live.post("/api/v1/metrics/tickets", #"{"value":3}"#).status == .accepted, "third shows tickets")
            #expect(try live.request("POST", "/api/v1/admin/reload", token: LiveServer.token).status == .forbidden)
        }
    }

    @Test("a changed redis setting waits for a restart, and the one in use stays in force")
    func redisNeedsRestart() {
        var running = ServerSettings()
        running.redis = RedisSettings(url: "redis://10.0.0.1:6379")
        var file = running
        file.redis = RedisSettings(url: "redis://10.0.0.2:6379", keyPrefix: "other")
        #expect(ConfigurationReloader.restartOnly(before: running, after: file) == ["redis"])
        #expect(ConfigurationReloader.merged(file: file, running: running).redis == running.redis)
    }
}
