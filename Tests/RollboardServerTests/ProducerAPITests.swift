import Foundation
import Logging
import RollboardClient
import RollboardNet
import Testing

@testable import RollboardCore
@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardMetrics
@testable import RollboardRedisLog
@testable import RollboardAccess
@testable import RollboardHub
@testable import RollboardSources
@testable import RollboardAPI
@testable import RollboardServer

private let token = "producer-token-0123456789"
private let restricted = "restricted-token-0123456789"

private let dashboardYAML = """
    id: demo
    tiles:
      - {id: revenue, type: odometer, maxColumns: 8, decimals: 2}
      - {id: visitors, type: odometer, columns: 3}
      - {id: orders, type: counter}
      - {id: conversion, type: counter, format: "%.2f"}
      - {id: status, type: wheel, contents: [ok, degraded, down]}
      - {id: news, type: carousel, slides: [{text: a}, {text: b}]}
      - {id: notice, type: text}
    """

/// An API over a fresh store in a temporary folder.
private final class Fixture: Sendable {
    let folder = TemporaryDirectory()
    let store: MetricStore
    let api: RollboardAPI

    init(
        serverYAML: String? = nil, rate: Double? = nil, now: (@Sendable () -> Double)? = nil,
        faults: StoreFaults? = nil
    ) throws {
        var yaml = serverYAML ?? ""
        if let rate { yaml += "\nlimits: {producerRequestsPerSecond: \(rate)}" }
        let configuration = try RollboardConfiguration.parse(
            serverYAML: yaml.isEmpty ? nil : yaml, dashboards: [("config/dashboards/demo.yaml", dashboardYAML)])
        store = try MetricStore(
            directory: folder.path, logger: Logger(label: "test"), clock: { 1_700_000_000.25 }, faults: faults)
        let tokens = [ProducerToken(token: token), ProducerToken(token: restricted, metrics: ["orders"])]
        api = RollboardAPI(
            configurations: ConfigurationStore(
                configuration, readerTokens: tokens.map(\.token), logger: Logger(label: "test")),
            tokens: tokens, store: store, logger: Logger(label: "test"), monotonicSeconds: now
        )
    }

    deinit {
        store.close()
        folder.remove()
    }

    func send(
        _ method: String,
        _ target: String,
        _ body: String? = nil,
        token: String? = token,
        contentType: String? = "application/json"
    ) async -> HTTPResponse {
        var headers: HTTPHeaders = [:]
        if let token { headers.add(name: "Authorization", value: "Bearer \(token)") }
        if let contentType, body != nil { headers.add(name: "Content-Type", value: contentType) }
        let request = HTTPRequest(method: method, target: target, headers: headers, body: Array((body ?? "").utf8))
        return await withCheckedContinuation { continuation in
            api.handle(request) { continuation.resume(returning: $0) }
        }
    }
}

extension HTTPResponse {
    var text: String { String(decoding: body, as: UTF8.self) }

    /// The `detail` of a JSON error body.
    var detail: String? {
        (try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])?["detail"] as? String
    }

    var errorCode: String? {
        (try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])?["error"] as? String
    }
}

@Suite("ProducerAPI")
struct ProducerAPITests {
    @Test("a posted value is answered 202 with its seq and is then readable")
    func postAndRead() async throws {
        let fixture = try Fixture()
        let posted = await fixture.send("POST", "/api/v1/metrics/revenue", #"{"value": 1234.5, "interval": 2}"#)
        #expect(posted.status == .accepted)
        #expect(posted.text == #"{"id":"revenue","value":1234.5,"seq":1}"#)
        #expect(fixture.store.current("revenue")?.interval == 2)

        let read = await fixture.send("GET", "/api/v1/metrics/revenue", token: nil)
        #expect(read.status == .ok)
        #expect(
            read.text == #"{"id":"revenue","value":1234.5,"seq":1,"updatedAt":"2023-11-14T22:13:20.250Z","#
                + #""history":[{"value":1234.5,"seq":1,"updatedAt":"2023-11-14T22:13:20.250Z"}]}"#)
    }

    @Test("animated false and a negative value are accepted")
    func notAnimated() async throws {
        let fixture = try Fixture()
        let posted = await fixture.send("POST", "/api/v1/metrics/revenue", #"{"value": -12.5, "animated": false}"#)
        #expect(posted.status == .accepted)
        #expect(fixture.store.current("revenue")?.animated == false)
    }

    @Test("a batch is stored whole and answered with every seq")
    func batch() async throws {
        let fixture = try Fixture()
        let body = #"{"updates":[{"id":"revenue","value":1},{"id":"orders","value":2},{"id":"visitors","value":3}]}"#
        let posted = await fixture.send("POST", "/api/v1/metrics", body)
        #expect(posted.status == .accepted)
        #expect(posted.text.hasPrefix(#"{"seq":3,"updates":[{"id":"revenue","value":1,"seq":1}"#))
        let list = await fixture.send("GET", "/api/v1/metrics", token: nil)
        #expect(list.text.contains(#""metrics":[{"id":"orders","value":2,"seq":2"#))
    }

    @Test("a batch with one bad item stores nothing")
    func batchAllOrNothing() async throws {
        let fixture = try Fixture()
        let body =
            #"{"updates":[{"id":"revenue","value":1},{"id":"orders","value":2},{"id":"visitors","value":3},"#
            + #"{"id":"visitors","value":1000}]}"#
        let posted = await fixture.send("POST", "/api/v1/metrics", body)
        #expect(posted.status == .unprocessableContent)
        #expect(
            posted.detail == #"updates[3].value: 1000 is too wide for tile "visitors" of dashboard "demo": "#
                + "3 columns with 0 decimals show at most ±999")
        #expect(fixture.store.all().isEmpty)
        #expect(fixture.store.lastSeq == 0)
    }

    static let refusals:
        [(
            method: String, target: String, body: String?, token: String?, contentType: String?,
            status: Int, error: String, detail: String
        )] = [
            (
                "POST", "/api/v1/metrics/revenue", #"{"value": 1"#, token, "application/json",
                400, "malformed_json", "invalid JSON: expected ',' or '}' in an object at byte 11"
            ),
            (
                "POST", "/api/v1/metrics/revenue", #"{"value": NaN}"#, token, "application/json",
                400, "malformed_json", "invalid JSON: unexpected character 'N', expected a value at byte 10"
            ),
            (
                "POST", "/api/v1/metrics/revenue", #"[1]"#, token, "application/json",
                400, "malformed_json", "the body must be a JSON object, got an array"
            ),
            (
                "POST", "/api/v1/metrics/revenue", #"{"value": 1, "value": 2}"#, token, "application/json",
                400, "malformed_json", #"invalid JSON: duplicate key "value" at byte 13"#
            ),
            (
                "POST", "/api/v1/metrics/revenue", #"{"interval": 1}"#, token, "application/json",
                400, "missing_field", "value: is required"
            ),
            (
                "POST", "/api/v1/metrics/revenue", #"{"value": "12"}"#, token, "application/json",
                400, "wrong_type", "value: must be a number, got a string"
            ),
            (
                "POST", "/api/v1/metrics/revenue", #"{"value": 1, "animated": "no"}"#, token, "application/json",
                400, "wrong_type", "animated: must be true or false, got a string"
            ),
            (
                "POST", "/api/v1/metrics/revenue", #"{"value": 1, "vaule": 2}"#, token, "application/json",
                400, "unknown_field", "vaule: unknown field (allowed: value, increment, interval, animated, policy)"
            ),
            (
                "POST", "/api/v1/metrics/revenue", #"{"value": 1}"#, nil, "application/json",
                401, "unauthorized", "writes need an Authorization: Bearer <token> header"
            ),
            (
                "POST", "/api/v1/metrics/revenue", #"{"value": 1}"#, "wrong-token", "application/json",
                401, "unauthorized", "the bearer token is not valid"
            ),
            (
                "POST", "/api/v1/metrics/revenue", #"{"value": 1}"#, restricted, "application/json",
                403, "forbidden", #"this token may not write "revenue""#
            ),
            (
                "POST", "/api/v1/metrics", #"{"updates":[{"id":"orders","value":1},{"id":"revenue","value":1}]}"#,
                restricted, "application/json",
                403, "forbidden", #"updates[1].id: this token may not write "revenue""#
            ),
            (
                "POST", "/api/v1/metrics/profit", #"{"value": 1}"#, token, "application/json",
                404, "unknown_metric", #"unknown metric "profit" (no tile shows it)"#
            ),
            (
                "POST", "/api/v1/metrics/status", #"{"value": 1}"#, token, "application/json",
                404, "unknown_metric", #""status" is a wheel; use /api/v1/wheels/status"#
            ),
            (
                "GET", "/api/v1/metrics/profit", nil, nil, nil,
                404, "unknown_metric", #"unknown metric "profit" (no tile shows it)"#
            ),
            (
                "GET", "/api/v1/nothing", nil, nil, nil,
                404, "not_found", "no such endpoint: /api/v1/nothing"
            ),
            (
                "GET", "/api/v1/dashboards/sales", nil, nil, nil,
                404, "unknown_dashboard", #"no dashboard "sales""#
            ),
            (
                "DELETE", "/api/v1/metrics/revenue", nil, token, nil,
                405, "method_not_allowed", "/api/v1/metrics/revenue accepts GET, HEAD, POST, not DELETE"
            ),
            (
                "POST", "/healthz", nil, token, nil,
                405, "method_not_allowed", "/healthz accepts GET, HEAD, not POST"
            ),
            (
                "POST", "/api/v1/metrics/revenue", #"{"value": 1}"#, token, "text/plain",
                415, "unsupported_media_type", #"Content-Type must be application/json, got "text/plain""#
            ),
            (
                "POST", "/api/v1/metrics/revenue", #"{"value": 1}"#, token, nil,
                415, "unsupported_media_type", "Content-Type must be application/json, got none"
            ),
            (
                "POST", "/api/v1/metrics/revenue", #"{"value": 1e400}"#, token, "application/json",
                422, "invalid_value", "value: 1e400 is not a finite number"
            ),
            (
                "POST", "/api/v1/metrics/revenue", #"{"value": 1000000}"#, token, "application/json",
                422, "invalid_value",
                #"value: 1000000 is too wide for tile "revenue" of dashboard "demo": 8 columns with 2 decimals show at most ±999999.99"#
            ),
            (
                "POST", "/api/v1/metrics/revenue", #"{"value": 999999.996}"#, token, "application/json",
                422, "invalid_value",
                #"value: 999999.996 is too wide for tile "revenue" of dashboard "demo": 8 columns with 2 decimals show at most ±999999.99"#
            ),
            (
                "POST", "/api/v1/metrics/orders", #"{"value": 9007199254740993}"#, token, "application/json",
                422, "invalid_value",
                #"value: 9007199254740993 is too large for tile "orders" of dashboard "demo": with 0 decimal places a counter shows magnitudes below 9000000000000000"#
            ),
            (
                "POST", "/api/v1/metrics/conversion", #"{"value": 1e14}"#, token, "application/json",
                422, "invalid_value",
                #"value: 1e14 is too large for tile "conversion" of dashboard "demo": with 2 decimal places a counter shows magnitudes below 90000000000000"#
            ),
            (
                "POST", "/api/v1/metrics/revenue", #"{"value": 1, "interval": 0}"#, token, "application/json",
                422, "invalid_value", "interval: must be above 0 and at most 3600 seconds, got 0"
            ),
            (
                "POST", "/api/v1/metrics/revenue", #"{"value": 1, "policy": "newest"}"#, token, "application/json",
                422, "invalid_value", #"policy: must be one of fifo, latest, retarget, got "newest""#
            ),
            (
                "POST", "/api/v1/metrics", #"{"updates":[{"id":"orders","value":1,"policy":3}]}"#, token,
                "application/json", 400, "wrong_type", "updates[0].policy: must be fifo, latest or retarget, got a number"
            ),
            (
                "POST", "/api/v1/metrics", #"{"updates":[]}"#, token, "application/json",
                422, "invalid_value", "updates: must not be empty"
            ),
            (
                "POST", "/api/v1/metrics", #"{"updates":[{"id":"orders","value":1},{"id":"profit","value":1}]}"#,
                token, "application/json",
                422, "invalid_value", #"updates[1].id: unknown metric "profit" (no tile shows it)"#
            ),
            (
                "POST", "/api/v1/metrics", #"{"updates":[{"id":"orders","value":1},{"id":"orders"}]}"#,
                token, "application/json",
                400, "missing_field", "updates[1].value: is required"
            ),
            (
                "POST", "/api/v1/metrics", #"{"updates":[{"id":"orders","value":1,"colour":2}]}"#,
                token, "application/json",
                400, "unknown_field", "updates[0].colour: unknown field (allowed: id, value, increment, interval, animated, policy, eventId)"
            ),
            (
                "POST", "/api/v1/wheels/status", #"{"index": 3}"#, token, "application/json",
                422, "invalid_value", "index: must be between 0 and 2 (the wheel has 3 labels), got 3"
            ),
            (
                "POST", "/api/v1/wheels/status", #"{"index": 1.5}"#, token, "application/json",
                400, "wrong_type", "index: must be an integer, got a number"
            ),
            (
                "POST", "/api/v1/wheels/status", #"{"progress": 1.5}"#, token, "application/json",
                422, "invalid_value", "progress: must be between 0 and 1, got 1.5"
            ),
            (
                "POST", "/api/v1/wheels/status", #"{"progress": 0.5, "index": 1}"#, token, "application/json",
                400, "bad_request", "give one of progress, index or label, not progress and index"
            ),
            (
                "POST", "/api/v1/wheels/revenue", #"{"index": 1}"#, token, "application/json",
                404, "unknown_wheel", #""revenue" is a metric; use /api/v1/metrics/revenue"#
            ),
            (
                "POST", "/api/v1/carousels/news", #"{"action": "goto", "page": 2}"#, token, "application/json",
                422, "invalid_value", "page: must be between 0 and 1 (the carousel has 2 slides), got 2"
            ),
            (
                "POST", "/api/v1/carousels/news", #"{"action": "goto"}"#, token, "application/json",
                400, "missing_field", "page: is required"
            ),
            (
                "POST", "/api/v1/carousels/news", #"{"action": "next", "page": 1}"#, token, "application/json",
                400, "bad_request", #"page: only allowed with action "goto""#
            ),
            (
                "POST", "/api/v1/carousels/news", #"{"action": "jump"}"#, token, "application/json",
                422, "invalid_value", #"action: must be "next", "prev" or "goto", got "jump""#
            ),
        ]

    @Test("a bad request gets the precise status, error and detail, and stores nothing", arguments: refusals)
    func refusal(
        method: String, target: String, body: String?, token: String?, contentType: String?,
        status: Int, error: String, detail: String
    ) async throws {
        let fixture = try Fixture()
        let response = await fixture.send(method, target, body, token: token, contentType: contentType)
        #expect(response.status.code == status)
        #expect(response.errorCode == error)
        #expect(response.detail == detail)
        #expect(response.headers["Content-Type"] == "application/json")
        #expect(fixture.store.lastSeq == 0)
    }

    @Test("401 carries WWW-Authenticate and 405 carries Allow")
    func challengeHeaders() async throws {
        let fixture = try Fixture()
        let missing = await fixture.send("POST", "/api/v1/metrics/revenue", #"{"value":1}"#, token: nil)
        #expect(missing.headers["WWW-Authenticate"] == #"Bearer realm="rollboard""#)
        let invalid = await fixture.send("POST", "/api/v1/metrics/revenue", #"{"value":1}"#, token: "nope")
        #expect(invalid.headers["WWW-Authenticate"] == #"Bearer realm="rollboard", error="invalid_token""#)
        let wrongMethod = await fixture.send("PUT", "/api/v1/carousels/news", "{}")
        #expect(wrongMethod.headers["Allow"] == "POST")
    }

    @Test("a body over the limit is refused with 413")
    func bodyTooLarge() async throws {
        let fixture = try Fixture(serverYAML: "limits: {maxBodyBytes: 1024}")
        let body = #"{"value": 1, "interval": 1"# + String(repeating: " ", count: 2000) + "}"
        let response = await fixture.send("POST", "/api/v1/metrics/revenue", body)
        #expect(response.status == .contentTooLarge)
        #expect(response.detail == "the body has 2027 bytes; at most 1024 are accepted (limits.maxBodyBytes in server.yaml)")
    }

    @Test("a restricted token may write its own metrics")
    func restrictedTokenAllowed() async throws {
        let fixture = try Fixture()
        let response = await fixture.send("POST", "/api/v1/metrics/orders", #"{"value": 5}"#, token: restricted)
        #expect(response.status == .accepted)
    }

    @Test("writes over the rate limit get 429 with Retry-After")
    func rateLimit() async throws {
        let fixture = try Fixture(rate: 1, now: { 50 })
        for _ in 0..<2 {
            #expect(await fixture.send("POST", "/api/v1/metrics/orders", #"{"value": 5}"#).status == .accepted)
        }
        let refused = await fixture.send("POST", "/api/v1/metrics/orders", #"{"value": 5}"#)
        #expect(refused.status == .tooManyRequests)
        #expect(refused.headers["Retry-After"] == "1")
    }

    @Test("a wheel target may name its label, stored as that label's index; an unknown label is refused")
    func wheelLabel() async throws {
        let fixture = try Fixture()
        let response = await fixture.send("POST", "/api/v1/wheels/status", #"{"label": "degraded"}"#)
        #expect(response.status == .accepted)
        #expect(fixture.store.wheel("status")?.target == .index(1))
        let refused = await fixture.send("POST", "/api/v1/wheels/status", #"{"label": "Degraded"}"#)
        #expect(refused.status.code == 422)
        #expect(refused.detail == #"label: "Degraded" is not one of the wheel's labels ("ok", "degraded", "down")"#)
    }

    @Test("a wheel target is stored and readable")
    func wheel() async throws {
        let fixture = try Fixture()
        let response = await fixture.send("POST", "/api/v1/wheels/status", #"{"index": 2}"#)
        #expect(response.status == .accepted)
        #expect(response.text == #"{"id":"status","index":2,"seq":1}"#)
        #expect(fixture.store.wheel("status")?.target == .index(2))
        let read = await fixture.send("GET", "/api/v1/wheels/status", token: nil)
        #expect(read.text.hasPrefix(#"{"id":"status","index":2,"seq":1,"updatedAt":"#))
    }

    @Test("a carousel command is a sequenced change in the store, told to its subscribers")
    func carousel() async throws {
        let fixture = try Fixture()
        let received = Synchronized<[StoreChange]>([])
        fixture.store.subscribe { change in received.update { $0.append(change) } }
        let response = await fixture.send("POST", "/api/v1/carousels/news", #"{"action": "goto", "page": 1}"#)
        #expect(response.status == .accepted)
        #expect(response.text == #"{"id":"news","action":"goto","page":1,"seq":1}"#)
        let second = await fixture.send("POST", "/api/v1/carousels/news", #"{"action": "prev"}"#)
        #expect(second.text == #"{"id":"news","action":"prev","seq":2}"#)
        let commands = received.update { $0 }.compactMap { change -> StoredCarouselCommand? in
            if case .carousel(let command) = change { command } else { nil }
        }
        #expect(commands.map(\.action) == [.goto(page: 1), .previous])
        #expect(commands.map(\.seq) == [1, 2])
        #expect(fixture.store.lastSeq == 2)
    }

    @Test("a known metric without a value reads as nulls")
    func knownWithoutValue() async throws {
        let fixture = try Fixture()
        let response = await fixture.send("GET", "/api/v1/metrics/orders", token: nil)
        #expect(response.status == .ok)
        #expect(response.text == #"{"id":"orders","value":null,"seq":null,"updatedAt":null,"history":[]}"#)
    }

    @Test("dashboards are listed with their layout and tiles")
    func dashboards() async throws {
        let fixture = try Fixture()
        let one = await fixture.send("GET", "/api/v1/dashboards/demo", token: nil)
        #expect(one.status == .ok)
        #expect(
            one.text.hasPrefix(
                #"{"id":"demo","title":"demo","grid":{"columns":4,"rows":2},"tiles":[{"id":"revenue","type":"odometer","title":null,"metric":"revenue","staleAfter":null,"backlog":8,"queue":"fifo","maxLag":6,"maxColumns":8,"decimals":2"#
            ))
        let all = await fixture.send("GET", "/api/v1/dashboards", token: nil)
        #expect(all.text.hasPrefix(#"{"dashboards":[{"id":"demo""#))
    }

    @Test("health says the process is alive; readiness is 503 once the store refuses writes")
    func health() async throws {
        let fixture = try Fixture()
        let healthy = await fixture.send("GET", "/healthz", token: nil)
        #expect(healthy.text == #"{"status":"ok","epoch":"\#(fixture.store.epoch)","seq":0}"#)
        let ready = await fixture.send("GET", "/readyz", token: nil)
        #expect(ready.text == #"{"status":"ready","epoch":"\#(fixture.store.epoch)","seq":0}"#)
        fixture.store.close()
        #expect(await fixture.send("GET", "/healthz", token: nil).status == .ok)
        let notReady = await fixture.send("GET", "/readyz", token: nil)
        #expect(notReady.status == .serviceUnavailable)
        #expect(notReady.errorCode == "store_unavailable")
        let write = await fixture.send("POST", "/api/v1/metrics/orders", #"{"value": 1}"#)
        #expect(write.status == .serviceUnavailable)
        #expect(write.detail == "the store is closed")
    }

    @Test("a full disk gets 503 from a post and from readiness, never 202")
    func fullDisk() async throws {
        let faults = StoreFaults()
        let fixture = try Fixture(faults: faults)
        faults.inject(.append, errno: ENOSPC, times: 1_000)
        let write = await fixture.send("POST", "/api/v1/metrics/orders", #"{"value": 1}"#)
        #expect(write.status == .serviceUnavailable)
        #expect(write.errorCode == "store_unavailable")
        #expect(write.detail?.contains("No space left on device") == true)
        let ready = await fixture.send("GET", "/readyz", token: nil)
        #expect(ready.status == .serviceUnavailable)
        #expect(fixture.store.current("orders") == nil)
    }

    /// The post is answered exactly once: the continuation in `send` would trap if the late completion answered too.
    @Test("a write the disk does not confirm within the commit timeout gets one 503, and readiness says why")
    func commitTimeout() async throws {
        let faults = StoreFaults()
        let fixture = try Fixture(serverYAML: "limits: {commitTimeout: 0.3}", faults: faults)
        faults.stall(.sync)
        defer { faults.release() }
        let write = await fixture.send("POST", "/api/v1/metrics/orders", #"{"value": 1}"#)
        #expect(write.status == .serviceUnavailable)
        #expect(write.errorCode == "commit_timeout")
        #expect(write.headers["Retry-After"] == "5")
        let ready = await fixture.send("GET", "/readyz", token: nil)
        #expect(ready.status == .serviceUnavailable)
        #expect(ready.errorCode == "store_stalled")
    }

    @Test("accepted and refused requests are counted")
    func statistics() async throws {
        let fixture = try Fixture()
        _ = await fixture.send("POST", "/api/v1/metrics/orders", #"{"value": 1}"#)
        _ = await fixture.send("POST", "/api/v1/metrics/orders", #"{"value": "x"}"#)
        #expect(fixture.api.statistics == ProducerAPIStatistics(acceptedWrites: 1, refused: [400: 1]))
    }

    @Test(
        "paths under /api, /healthz and /readyz are the API's",
        arguments: [
            ("/healthz", true), ("/readyz", true), ("/api/v1/metrics", true), ("/api", true), ("/", false), ("/d/demo", false),
            ("/apiary", false),
        ])
    func handles(path: String, expected: Bool) {
        #expect(APIRoutes.isProducerPath(path) == expected)
    }

    // MARK: Producer-fed text

    @Test("slides are answered 202 with their count and seq once stored, and a carousel's goto then follows their count")
    func slides() async throws {
        let fixture = try Fixture()
        let body = ##"{"slides":[{"text":"Welcome"},{"image":"https://x.test/a.png","alt":"a"},{"text":"Fire drill","color":"#c0392b"}]}"##
        let response = await fixture.send("POST", "/api/v1/carousels/news/slides", body)
        #expect(response.status == .accepted)
        #expect(response.text == #"{"id":"news","slides":3,"seq":1}"#)
        #expect(fixture.store.slides("news")?.slides.last == .text("Fire drill", color: "#c0392b"))
        #expect(await fixture.send("POST", "/api/v1/carousels/news", #"{"action":"goto","page":2}"#).status == .accepted)
        let beyond = await fixture.send("POST", "/api/v1/carousels/news", #"{"action":"goto","page":3}"#)
        #expect(beyond.detail == "page: must be between 0 and 2 (the carousel has 3 slides), got 3")
        let refused = await fixture.send("POST", "/api/v1/carousels/news/slides", #"{"slides":[{"text":"a","color":"red"}]}"#)
        #expect(refused.status.code == 422)
        #expect(refused.detail == #"slides[0].color: must be a colour like #rgb or #rrggbb, got "red""#)
        #expect(fixture.store.lastSeq == 2, "the slides and the goto are stored; nothing for a refused body")
    }

    @Test("a text is answered 202 once stored and read back with GET; an empty text clears it")
    func text() async throws {
        let fixture = try Fixture()
        let unset = await fixture.send("GET", "/api/v1/texts/notice", token: nil)
        #expect(unset.text == #"{"id":"notice","text":null,"color":null,"seq":null,"updatedAt":null}"#)
        let response = await fixture.send("POST", "/api/v1/texts/notice", ##"{"text":"Deploy freeze until Friday","color":"#e67e22"}"##)
        #expect(response.status == .accepted)
        #expect(response.text == ##"{"id":"notice","text":"Deploy freeze until Friday","color":"#e67e22","seq":1}"##)
        let read = await fixture.send("GET", "/api/v1/texts/notice", token: nil)
        #expect(read.text == ##"{"id":"notice","text":"Deploy freeze until Friday","color":"#e67e22","seq":1,"updatedAt":"2023-11-14T22:13:20.250Z"}"##)
        #expect(await fixture.send("POST", "/api/v1/texts/notice", #"{"text":""}"#).text == #"{"id":"notice","text":"","color":null,"seq":2}"#)
        #expect(fixture.store.text("notice") == StoredText(id: "notice", text: "", seq: 2, updatedAt: 1_700_000_000.25))
    }

    @Test(
        "texts and slides go only to ids of their kind, and a restricted token writes only its own ids",
        arguments: [
            ("POST", "/api/v1/texts/news", #"{"text":"a"}"#, token, 404, "unknown_text", #""news" is a carousel; use /api/v1/carousels/news"#),
            ("GET", "/api/v1/texts/nope", nil, token, 404, "unknown_text", #"unknown text "nope" (no tile shows it)"#),
            ("POST", "/api/v1/carousels/notice/slides", #"{"slides":[{"text":"a"}]}"#, token, 404, "unknown_carousel",
             #""notice" is a text; use /api/v1/texts/notice"#),
            ("POST", "/api/v1/metrics/notice", #"{"value":1}"#, token, 404, "unknown_metric", #""notice" is a text; use /api/v1/texts/notice"#),
            ("POST", "/api/v1/texts/notice", #"{"text":"a"}"#, restricted, 403, "forbidden", #"this token may not write "notice""#),
            ("POST", "/api/v1/carousels/news/slides", #"{"slides":[{"text":"a"}]}"#, restricted, 403, "forbidden",
             #"this token may not write "news""#),
            ("GET", "/api/v1/carousels/news/slides", nil, token, 405, "method_not_allowed",
             "/api/v1/carousels/news/slides accepts POST, not GET"),
            ("POST", "/api/v1/texts/notice", nil, nil, 401, "unauthorized", "writes need an Authorization: Bearer <token> header"),
        ] as [(String, String, String?, String?, Int, String, String)])
    func textRouting(
        method: String, target: String, body: String?, bearer: String?, status: Int, error: String, detail: String
    ) async throws {
        let fixture = try Fixture()
        let response = await fixture.send(method, target, body, token: bearer)
        #expect(response.status.code == status)
        #expect(response.errorCode == error)
        #expect(response.detail == detail)
        #expect(fixture.store.lastSeq == 0)
    }
}
