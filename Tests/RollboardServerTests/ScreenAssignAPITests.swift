import Foundation
import RollboardNet
import Testing

@testable import RollboardAccess
@testable import RollboardConfig

/// `POST /api/v1/admin/screens/{screen}/assign` through the real TLS server, every shipped dashboard behind a key.
@Suite("ScreenAssignAPI")
struct ScreenAssignAPITests {
    private func assign(_ live: LiveServer, _ screen: String, _ body: String) throws -> HTTPResponse {
        try live.request(
            "POST", "/api/v1/admin/screens/\(screen)/assign", body: Array(body.utf8), token: LiveServer.adminToken,
            contentType: "application/json")
    }

    @Test(
        "a bad assignment is refused naming the field: 422 for an unknown id or value, 400 for a wrong shape",
        arguments: [
            (#"{"show":{"dashboard":"nope"}}"#, "show.dashboard", 422),
            (#"{"show":{"playlist":"nope"}}"#, "show.playlist", 422),
            (#"{"show":{"dashboard":7}}"#, "show.dashboard", 400),
            (#"{"show":{}}"#, "show", 422),
            (#"{"theme":"dark"}"#, "show", 400),
            (#"{"show":{"dashboard":"demo"},"theme":"blue"}"#, "theme", 400),
            (#"{"show":{"dashboard":"demo"},"kiosk":"yes"}"#, "kiosk", 400),
            (#"{"show":{"dashboard":"demo"},"fps":5}"#, "fps", 400),
        ])
    func refusesBadBodies(body: String, field: String, status: Int) throws {
        try withLiveServer(dashboardAccess: .viewerKey) { live in
            let refused = try assign(live, "Lobby%20TV", body)
            #expect(Int(refused.status.code) == status && refused.text.contains(field), "\(refused.text)")
        }
    }

    @Test("a screen name with control characters is refused, naming the screen")
    func refusesBadNames() throws {
        try withLiveServer(dashboardAccess: .viewerKey) { live in
            let response = try assign(live, "a%0Ab", #"{"show":{"dashboard":"demo"}}"#)
            #expect(response.status.code == 422 && response.text.contains("screen"), "\(response.text)")
        }
    }

    @Test("assigning a paired TV limits its key to the new target: it opens that and nothing else")
    func pairedKeyFollows() throws {
        try withLiveServer(dashboardAccess: .viewerKey) { live in
            let created = try live.request(
                "POST", "/api/v1/admin/keys", body: Array(#"{"name":"Lobby TV","dashboards":["demo"]}"#.utf8),
                token: LiveServer.adminToken, contentType: "application/json")
            let key = try jsonObject(created.body)
            let secret = try #require(key["key"] as? String)
            let keyID = try #require(key["id"] as? String)

            let response = try assign(live, "Lobby%20TV", #"{"show":{"dashboard":"story"},"theme":"dark","kiosk":true}"#)
            #expect(response.status == .accepted, "\(response.text)")
            let answer = try jsonObject(response.body)
            #expect(answer["url"] as? String == "/d/story?name=Lobby%20TV&theme=dark&kiosk")
            #expect(answer["keys"] as? [String] == [keyID] && answer["screen"] as? String == "Lobby TV")
            #expect(try live.request("GET", "/api/v1/dashboards/story?key=\(secret)").status == .ok)
            #expect(try live.request("GET", "/api/v1/dashboards/demo?key=\(secret)").status == .forbidden)

            let long = String(repeating: "Lobby ", count: 15) + "TV"  // 92 characters: the screen is listed by its first 64
            let longKey = try live.request(
                "POST", "/api/v1/admin/keys", body: Array(#"{"name":"\#(long)","dashboards":["demo"]}"#.utf8),
                token: LiveServer.adminToken, contentType: "application/json")
            let longID = try #require(try jsonObject(longKey.body)["id"] as? String)
            let listed = String(long.prefix(64)).trimmingCharacters(in: .whitespaces)
            let byListedName = try assign(
                live, listed.replacingOccurrences(of: " ", with: "%20"), #"{"show":{"dashboard":"story"}}"#)
            #expect(try jsonObject(byListedName.body)["keys"] as? [String] == [longID], "\(byListedName.text)")

            let other = try assign(live, "Hall", #"{"show":{"dashboard":"demo"}}"#)
            #expect(try jsonObject(other.body)["keys"] as? [String] == [], "a key named otherwise is left alone")
            #expect(try live.request("GET", "/api/v1/dashboards/demo?key=\(secret)").status == .forbidden)
        }
    }
}
