import Foundation
import RollboardNet
import RollboardTestSupport
import Testing

@testable import RollboardAccess
@testable import RollboardConfig
@testable import RollboardStore

/// Pairing on two live nodes sharing one real Redis: a code issued by one node is paired through the other.
@Suite("PairingsCluster", .serialized, .enabled(if: RedisServerProcess.shouldRun))
struct PairingsClusterTests {
    /// Two nodes on one Redis, both reading the stream live, and a `Changes` told of every change either reads.
    private func withTwoNodes(_ body: (LiveServer, LiveServer, Changes) throws -> Void) throws {
        let redis = try RedisServerProcess()
        defer { redis.stop() }
        let changes = Changes()
        try withLiveServer(dashboardAccess: .viewerKey, redis: redis.url) { one in
            try withLiveServer(dashboardAccess: .viewerKey, redis: redis.url) { two in
                for node in [one, two] {
                    node.changeLog.subscribe { _ in changes.changed() }
                    node.changeLog.observeFeed { _ in changes.changed() }
                }
                #expect(changes.waitBlocking { one.changeLog.isFeedLive && two.changeLog.isFeedLive })
                try body(one, two, changes)
            }
        }
    }

    private func tvCode(_ live: LiveServer) throws -> (code: String, pollToken: String) {
        try live.tvCode()
    }

    private func pair(_ live: LiveServer, _ code: String, name: String = "Lobby TV") throws -> HTTPResponse {
        try live.pair(#"{"code":"\#(code)","name":"\#(name)","show":{"dashboard":"demo"},"kiosk":true}"#)
    }

    @Test("a code a TV got from node two is paired through node one, and node two hands the TV its key once")
    func pairedThroughAnotherNode() throws {
        try withTwoNodes { one, two, changes in
            let (code, pollToken) = try tvCode(two)
            let waiting = try two.request("GET", "/api/v1/tv/pairings/\(pollToken)")
            #expect(waiting.text.contains(#""state":"waiting""#))

            let paired = try pair(one, code)
            #expect(paired.status == .created, "\(paired.text)")
            let keyID = try #require(try jsonObject(paired.body)["keyId"] as? String)
            #expect(!paired.text.contains("rbv_"), "the operator never sees the secret")

            var handed: [String: Any] = [:]
            #expect(
                try changes.waitBlocking {
                    handed = try jsonObject(try two.request("GET", "/api/v1/tv/pairings/\(pollToken)").body)
                    return handed["state"] as? String == "paired"
                })
            let secret = try #require(handed["key"] as? String)
            #expect(handed["keyId"] as? String == keyID)
            #expect(handed["url"] as? String == "/d/demo?name=Lobby%20TV&kiosk&key=\(secret)")
            let again = try two.request("GET", "/api/v1/tv/pairings/\(pollToken)")
            #expect(again.status == .notFound && again.errorCode == "unknown_pairing", "handed over once")

            for node in [two, one] {
                #expect(try node.request("GET", "/api/v1/dashboards/demo?key=\(secret)").status == .ok)
                #expect(try node.request("GET", "/api/v1/dashboards/story?key=\(secret)").status == .forbidden)
                let used = try pair(node, code, name: "Other")
                #expect(used.status == .notFound && used.errorCode == "unknown_code", "single-use on every node")
            }
        }
    }

    @Test("an unknown code is 404 on a Redis node and counts toward its limit, the right code then refused too")
    func guessing() throws {
        try withTwoNodes { one, two, _ in
            let (code, _) = try tvCode(two)
            let wrong = code == "333333" ? "444444" : "333333"
            for _ in 0..<PairingCodes.Defaults.failedClaimsPerAddress {
                let response = try pair(one, wrong)
                #expect(response.status == .notFound && response.detail?.hasPrefix("code:") == true)
            }
            let limited = try pair(one, code)
            #expect(limited.status == .tooManyRequests && limited.errorCode == "rate_limited")
            #expect(try pair(two, code).status == .created, "failed guesses are counted per node")
        }
    }

    @Test("with Redis out of reach, asking for a code and pairing one answer 503 redis_unavailable")
    func redisAway() throws {
        let redis = try RedisServerProcess()
        let url = redis.url
        redis.stop()
        try withLiveServer(redis: url) { live in
            let asked = try live.request("POST", "/api/v1/tv/pairings")
            #expect(asked.status == .serviceUnavailable && asked.errorCode == "redis_unavailable", "\(asked.text)")
            let paired = try pair(live, "ACDEFG")
            #expect(paired.status == .serviceUnavailable && paired.errorCode == "redis_unavailable", "\(paired.text)")
        }
    }
}
