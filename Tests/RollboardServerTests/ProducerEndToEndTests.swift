import Foundation
import RollboardClient
import RollboardNet
import RollboardTestSupport
import Testing

/// The real server with TLS on a free port: the producer API over HTTPS, reads, pages and a restart on the same data.
@Suite("End to end: producers and readers get precise answers, kept across a restart")
struct ProducerEndToEndTests {
    @Test("every bad producer request gets its precise status and a JSON error", arguments: BadProducerRequest.all)
    func badProducerRequestIsRefused(_ bad: BadProducerRequest) throws {
        try withLiveServer { live in
            let body = bad.oversizedBody.map { [UInt8](repeating: UInt8(ascii: " "), count: $0) } ?? Array(bad.body.utf8)
            let token: String? =
                switch bad.token {
                case .valid: LiveServer.token
                case .wrong: "not-the-token"
                case .none: nil
                }
            let response = try live.request(
                bad.method, bad.target, body: body, token: token, contentType: bad.contentType)
            #expect(response.status.code == bad.status)
            #expect(response.headers["Content-Type"]?.hasPrefix("application/json") == true)
            let error = try jsonObject(response.body)
            #expect(error["error"] as? String == bad.error)
            #expect((error["detail"] as? String)?.isEmpty == false)
            if let (name, fragment) = bad.header {
                #expect(response.headers[name]?.contains(fragment) == true, "\(name): \(response.headers[name] ?? "none")")
            }
        }
    }

    @Test("a batch with one bad item is refused whole and leaves every value as it was")
    func badBatchStoresNothing() throws {
        try withLiveServer { live in
            #expect(try live.post("/api/v1/metrics/revenue", #"{"value": 500}"#).status.code == 202)
            let batch = #"{"updates":[{"id":"revenue","value":600},{"id":"orders","value":7},{"id":"visitors","value":123456}]}"#
            let refused = try live.post("/api/v1/metrics", batch)
            #expect(refused.status.code == 422)
            let error = try jsonObject(refused.body)
            #expect(error["error"] as? String == "invalid_value")
            #expect((error["detail"] as? String)?.hasPrefix("updates[2].value") == true)
            let revenue = try jsonObject(live.request("GET", "/api/v1/metrics/revenue").body)
            #expect(revenue["value"] as? Double == 500)
            let orders = try jsonObject(live.request("GET", "/api/v1/metrics/orders").body)
            #expect(orders["value"] is NSNull)
        }
    }

    @Test("health, metrics, pages and reads answer", arguments: PageRequest.all)
    func pagesAnswer(_ page: PageRequest) throws {
        try withLiveServer { live in
            #expect(try live.post("/api/v1/metrics/orders", #"{"value": 12}"#).status.code == 202)
            let response = try live.request("GET", page.target, accept: page.accept)
            #expect(response.status.code == page.status)
            #expect(response.headers["Content-Type"]?.hasPrefix(page.contentType) == true)
            let text = String(decoding: response.body, as: UTF8.self)
            #expect(text.contains(page.contains), "\(page.target) body: \(text.prefix(300))")
        }
    }

    @Test("connections their clients have closed are released at once, not after the close timeout")
    func closedConnectionsAreReleased() throws {
        try withLiveServer { live in
            for _ in 0..<8 {
                let response = try live.request("GET", "/healthz")
                #expect(response.status.code == 200)
            }
            #expect(
                eventuallyBlocking(within: 2) { live.connectionCount == 0 },
                "connections still open 2 s after their clients closed them")
        }
    }

    // MARK: Restart

    @Test("a restarted server on the same data shows the last acknowledged values in a new screen's hello")
    func restartKeepsAcknowledgedValues() throws {
        try withRestartedLiveServer(
            before: { (live: LiveServer) throws in
                #expect(try live.post("/api/v1/metrics/revenue", #"{"value": 1000, "interval": 0.3}"#).status.code == 202)
                #expect(try live.post("/api/v1/metrics/revenue", #"{"value": 98765.43, "interval": 0.3}"#).status.code == 202)
                #expect(try live.post("/api/v1/metrics/visitors", #"{"value": 4242}"#).status.code == 202)
                #expect(try live.post("/api/v1/wheels/status", #"{"index": 3}"#).status.code == 202)
            },
            after: { (restarted: LiveServer) throws in
                let hello = try Screen(restarted.webSocket()).hello()
                let tiles = try #require(hello["tiles"] as? [String: Any])
                #expect(ScreenOdometer(tiles["revenue"]) == ScreenOdometer(digits: [9, 8, 7, 6, 5, 4, 3], target: 98765.43))
                #expect(ScreenOdometer(tiles["visitors"]) == ScreenOdometer(digits: [0, 4, 2, 4, 2], target: 4242))
                #expect((tiles["status"] as? [String: Any])?["position"] as? Double == 3)
                let read = try jsonObject(restarted.request("GET", "/api/v1/metrics/revenue").body)
                #expect(read["value"] as? Double == 98765.43)
            })
    }
}
