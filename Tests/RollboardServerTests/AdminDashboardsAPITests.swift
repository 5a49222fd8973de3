import Foundation
import RollboardNet
import Testing

@testable import RollboardConfig
@testable import RollboardCore

/// When a tile is stale (the one rule, ``RollboardConfiguration/isStale(_:updatedAt:now:)``), and
/// `GET /api/v1/admin/dashboards` through the real TLS server on a manual clock.
@Suite("AdminDashboardsAPI")
struct AdminDashboardsAPITests {
    private static func shipped() throws -> RollboardConfiguration {
        try RollboardConfiguration.load(directory: LiveServer.repositoryRoot + "/config")
    }

    @Test(
        "a tile is stale once its value is staleAfter old or while it has none; a text, a carousel or no staleAfter never",
        arguments: [
            (tile: "revenue", own: 300.0 as Double?, server: 900.0 as Double?, updatedAt: 1_000.0 as Double?, now: 1_299.0, stale: false),
            ("revenue", 300, 900, 1_000, 1_300, true),
            ("revenue", nil, 900, 1_000, 1_300, false),
            ("revenue", nil, 900, 1_000, 1_900, true),
            ("revenue", nil, nil, 1_000, 99_999, false),
            ("revenue", nil, nil, nil, 1_000, false),
            ("revenue", 300, nil, nil, 1_000, true),
            ("status", nil, 900, nil, 0, true),
            ("notice", 60, 900, nil, 5_000, false),
            ("news", 60, 900, 1_000, 5_000, false),
        ])
    func staleRule(tile id: String, own: Double?, server: Double?, updatedAt: Double?, now: Double, stale: Bool) throws {
        let shipped = try Self.shipped()
        var settings = shipped.server
        settings.staleAfter = server
        let configuration = shipped.replacingServer(settings)
        var tile = try #require(configuration.dashboard("demo")?.tile(id))
        tile.staleAfter = own
        #expect(configuration.isStale(tile, updatedAt: updatedAt, now: now) == stale)
    }

    private func dashboards(_ live: LiveServer) throws -> [String: Any] {
        let response = try live.request("GET", "/api/v1/admin/dashboards", token: LiveServer.adminToken)
        #expect(response.status == .ok, "\(response.text)")
        return try jsonObject(response.body)
    }

    @Test(
        "the dashboards list gives each page, this node's screens and the stale tiles by the node's clock",
        arguments: [(after: 299.0, revenueStale: false), (300, true)])
    func listsStaleTiles(after seconds: Double, revenueStale: Bool) throws {
        let start = 1_800_000_000.0
        let clock = ManualClock(at: start)
        try withLiveServer(extraFiles: [("playlists/wall.yaml", "title: Wall\nentries:\n  - {dashboard: demo}\n")], clock: clock) { live in
            let before = try dashboards(live)
            let demo = try #require((before["dashboards"] as? [[String: Any]])?.first { $0["id"] as? String == "demo" })
            #expect(demo["url"] as? String == "/d/demo" && demo["screens"] as? Int == 0)
            #expect(demo["title"] as? String == "Rollboard demo — today at a glance")
            let stale = try #require(demo["staleTiles"] as? [[String: Any]])
            #expect(stale.map { $0["tile"] as? String } == ["revenue", "visitors", "orders", "conversion", "temperature", "status"])
            #expect(stale.allSatisfy { $0["updatedAt"] is NSNull })
            #expect(stale.first?["staleAfter"] as? Int == 300 && stale.last?["staleAfter"] as? Int == 900)
            let playlists = try #require(before["playlists"] as? [[String: Any]])
            #expect(playlists.map { "\($0["id"] ?? "")|\($0["title"] ?? "")|\($0["url"] ?? "")" } == ["wall|Wall|/p/wall"])

            let posted = try live.request(
                "POST", "/api/v1/metrics/revenue", body: Array(#"{"value":5}"#.utf8), token: LiveServer.token,
                contentType: "application/json")
            #expect(posted.status == .accepted)
            let screen = try Screen(live.webSocket("/ws?dashboard=demo"))
            _ = try screen.hello()
            clock.step(to: start + seconds)
            let after = try dashboards(live)
            let now = try #require((after["dashboards"] as? [[String: Any]])?.first { $0["id"] as? String == "demo" })
            #expect(now["screens"] as? Int == 1)
            let revenue = (now["staleTiles"] as? [[String: Any]])?.first { $0["tile"] as? String == "revenue" }
            #expect((revenue != nil) == revenueStale)
            if let revenue { #expect(revenue["updatedAt"] as? String == iso8601(start) && revenue["metric"] as? String == "revenue") }

            #expect(try live.request("GET", "/api/v1/admin/dashboards", token: LiveServer.token).status == .forbidden)
            #expect(try live.request("GET", "/api/v1/admin/dashboards").status == .unauthorized)
        }
    }
}
