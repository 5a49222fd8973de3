import Foundation
import Logging
import RollboardNet
import Testing

@testable import RollboardCore
@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardAccess
@testable import RollboardHub
@testable import RollboardAPI
@testable import RollboardServer

/// `{"increment":…}` and `Idempotency-Key` / `eventId` through the producer API over the journal: the answers, the
/// replays, and each refusal naming its field with nothing stored.
@Suite("Producer API: increments")
struct ProducerIncrementAPITests {
    static let token = "producer-token-0123456789"

    final class Fixture: Sendable {
        let folder = TemporaryDirectory()
        let store: MetricStore
        let api: RollboardAPI

        init(serverYAML: String? = nil) throws {
            let dashboard = """
                id: demo
                tiles:
                  - {id: visitors, type: odometer, columns: 3}
                  - {id: orders, type: counter}
                """
            let configuration = try RollboardConfiguration.parse(
                serverYAML: serverYAML, dashboards: [("config/dashboards/demo.yaml", dashboard)])
            store = try MetricStore(
                directory: folder.path, logger: Logger(label: "test"), clock: { 1_800_000_000 }, faults: nil)
            let tokens = [ProducerToken(token: ProducerIncrementAPITests.token)]
            api = RollboardAPI(
                configurations: ConfigurationStore(
                    configuration, readerTokens: tokens.map(\.token), logger: Logger(label: "test")),
                tokens: tokens, store: store, logger: Logger(label: "test"))
        }

        deinit {
            store.close()
            folder.remove()
        }

        func get(_ target: String, bearer: String? = nil) async -> HTTPResponse {
            var headers: HTTPHeaders = [:]
            if let bearer { headers.add(name: "Authorization", value: "Bearer \(bearer)") }
            let request = HTTPRequest(method: "GET", target: target, headers: headers)
            return await withCheckedContinuation { continuation in
                api.handle(request) { continuation.resume(returning: $0) }
            }
        }

        func post(_ target: String, _ body: String, key: String? = nil, keys: [String] = []) async -> HTTPResponse {
            var headers: HTTPHeaders = [
                "Authorization": "Bearer \(ProducerIncrementAPITests.token)", "Content-Type": "application/json",
            ]
            if let key { headers.add(name: "Idempotency-Key", value: key) }
            for key in keys { headers.add(name: "Idempotency-Key", value: key) }
            let request = HTTPRequest(method: "POST", target: target, headers: headers, body: Array(body.utf8))
            return await withCheckedContinuation { continuation in
                api.handle(request) { continuation.resume(returning: $0) }
            }
        }
    }

    @Test(
        "an increment is answered with its total and seq; a retry with the same key gets the same answer, marked replayed"
    )
    func incrementAndRetry() async throws {
        let fixture = try Fixture()
        let first = await fixture.post("/api/v1/metrics/visitors", #"{"increment": 40}"#, key: "k-1")
        #expect(first.status == .accepted)
        #expect(first.text == #"{"id":"visitors","value":40,"seq":1}"#)
        #expect(first.headers["Idempotent-Replayed"] == nil)
        let retry = await fixture.post("/api/v1/metrics/visitors", #"{"increment": 40}"#, key: "k-1")
        #expect(retry.status == .accepted)
        #expect(retry.text == first.text)
        #expect(retry.headers["Idempotent-Replayed"] == "true")
        let next = await fixture.post("/api/v1/metrics/visitors", #"{"increment": 2.0}"#)
        #expect(next.text == #"{"id":"visitors","value":42,"seq":2}"#)
    }

    @Test("a batch mixes values and increments, and an item's eventId seen before is answered as it was")
    func batch() async throws {
        let fixture = try Fixture()
        let body = #"{"updates":[{"id":"orders","increment":5,"eventId":"o-1"},{"id":"visitors","value":7}]}"#
        let first = await fixture.post("/api/v1/metrics", body)
        #expect(
            first.text
                == #"{"seq":2,"updates":[{"id":"orders","value":5,"seq":1},{"id":"visitors","value":7,"seq":2}]}"#)
        let again = await fixture.post(
            "/api/v1/metrics",
            #"{"updates":[{"id":"orders","increment":5,"eventId":"o-1"},{"id":"orders","increment":1}]}"#)
        #expect(
            again.text == #"{"seq":3,"updates":[{"id":"orders","value":5,"seq":1},{"id":"orders","value":6,"seq":3}]}"#)
        #expect(again.headers["Idempotent-Replayed"] == nil, "one item was applied")
    }

    static let refusals: [(target: String, body: String, key: String?, status: Int, detail: String)] = [
        ("/api/v1/metrics/orders", #"{"increment": "3"}"#, nil, 400, "increment: must be a number, got a string"),
        ("/api/v1/metrics/orders", #"{"increment": 1e999}"#, nil, 422, "increment: 1e999 is not a finite number"),
        (
            "/api/v1/metrics/orders", #"{"value": 1, "increment": 3}"#, nil, 400,
            "increment: give value or increment, not both"
        ),
        ("/api/v1/metrics/orders", #"{"increment": null}"#, nil, 400, "increment: must be a number, got null"),
        (
            "/api/v1/metrics/visitors", #"{"increment": 1000}"#, nil, 422,
            #"increment: the total 1000 cannot be shown: 1000 is too wide for tile "visitors" of dashboard "demo": "#
                + "3 columns with 0 decimals show at most ±999"
        ),
        (
            "/api/v1/metrics", #"{"updates":[{"id":"orders","increment":1},{"id":"visitors","increment":999.5}]}"#, nil,
            422,
            #"updates[1].increment: the total 999.5 cannot be shown: 999.5 is too wide for tile "visitors" of dashboard "#
                + #""demo": 3 columns with 0 decimals show at most ±999"#
        ),
        (
            "/api/v1/metrics", #"{"updates":[{"id":"orders","increment":1,"eventId":""}]}"#, nil, 422,
            #"updates[0].eventId: must be 1 to 200 visible ASCII characters (no spaces), got """#
        ),
        (
            "/api/v1/metrics", #"{"updates":[{"id":"orders","increment":1,"eventId":7}]}"#, nil, 400,
            "updates[0].eventId: must be a string, got a number"
        ),
        (
            "/api/v1/metrics/orders", #"{"increment": 1, "eventId": "e"}"#, nil, 400,
            "eventId: unknown field (allowed: value, increment, interval, animated, policy)"
        ),
        (
            "/api/v1/metrics/orders", #"{"increment": 1}"#, "has space", 422,
            #"Idempotency-Key: must be 1 to 200 visible ASCII characters (no spaces), got "has space""#
        ),
    ]

    @Test("bad increments and keys are refused with the field named, and nothing is stored", arguments: refusals)
    func refused(_ refusal: (target: String, body: String, key: String?, status: Int, detail: String)) async throws {
        let fixture = try Fixture()
        let response = await fixture.post(refusal.target, refusal.body, key: refusal.key)
        #expect(Int(response.status.code) == refusal.status)
        #expect(response.detail == refusal.detail)
        #expect(fixture.store.lastSeq == 0)
        #expect(fixture.store.all().isEmpty)
    }

    @Test("a key used for another request is refused (422) and the first request's effect stays")
    func keyReused() async throws {
        let fixture = try Fixture()
        _ = await fixture.post("/api/v1/metrics/orders", #"{"increment": 1}"#, key: "once")
        let other = await fixture.post("/api/v1/metrics/orders", #"{"increment": 2}"#, key: "once")
        #expect(other.status == .unprocessableContent)
        #expect(other.detail == #"Idempotency-Key: "once" was used within the last day for a different request"#)
        #expect(fixture.store.current("orders")?.value == 1)
        #expect(fixture.store.lastSeq == 1)
    }

    @Test("a batch giving one eventId to two items is refused 422 naming both, its retry too, and nothing is stored")
    func repeatedEventID() async throws {
        let fixture = try Fixture()
        let body = #"{"updates":[{"id":"orders","increment":1,"eventId":"e"},{"id":"orders","increment":5,"eventId":"e"}]}"#
        for key in [nil, "batch-key", nil] {
            let refused = await fixture.post("/api/v1/metrics", body, key: key)
            #expect(refused.status == .unprocessableContent, "\(refused.text)")
            #expect(
                refused.text.contains(
                    "updates[1].eventId: repeats updates[0].eventId (a batch may give an eventId once)"),
                "\(refused.text)")
        }
        #expect(fixture.store.lastSeq == 0, "nothing was stored")
        let keyUnused = await fixture.post("/api/v1/metrics/orders", #"{"increment": 2}"#, key: "batch-key")
        #expect(keyUnused.text == #"{"id":"orders","value":2,"seq":1}"#, "the refused batch used no key")
    }

    @Test(
        "the Idempotency-Key header given twice is refused 400 naming it, on metric and leaderboard writes alike",
        arguments: ["/api/v1/metrics/orders", "/api/v1/metrics"])
    func twoKeyHeaders(target: String) async throws {
        let fixture = try Fixture()
        let body = target.hasSuffix("orders") ? #"{"increment": 1}"# : #"{"updates":[{"id":"orders","increment":1}]}"#
        for keys in [["a", "b"], ["a", "a"]] {
            let refused = await fixture.post(target, body, keys: keys)
            #expect(refused.status == .badRequest, "\(refused.text)")
            #expect(refused.text.contains("Idempotency-Key: the header is given 2 times; give it once"), "\(refused.text)")
        }
        #expect(fixture.store.lastSeq == 0)
    }

    @Test("a key or event id too long is refused 422 showing only its first 32 characters and its length")
    func longKeyIsNotEchoed() async throws {
        let fixture = try Fixture()
        let long = String(repeating: "k", count: 10_240)
        let refused = await fixture.post("/api/v1/metrics/orders", #"{"increment": 1}"#, key: long)
        #expect(refused.status == .unprocessableContent)
        #expect(refused.text.count < 300, "\(refused.text.count) bytes")
        #expect(refused.text.contains(String(repeating: "k", count: 32) + #"…\" (10240 bytes)"#), "\(refused.text)")
        let event = await fixture.post(
            "/api/v1/metrics", #"{"updates":[{"id":"orders","increment":1,"eventId":""# + long + #""}]}"#)
        #expect(event.status == .unprocessableContent)
        #expect(event.text.count < 300, "\(event.text.count) bytes")
        let short = await fixture.post("/api/v1/metrics/orders", #"{"increment": 1}"#, key: "a b")
        #expect(short.text.contains(#"got \"a b\""#), "a short one is shown whole: \(short.text)")
    }
}
