import Foundation
import Logging
import RollboardNet
import Testing

@testable import RollboardAPI
@testable import RollboardConfig
@testable import RollboardCore
@testable import RollboardMetrics
@testable import RollboardStore

private let secret = "whsec_test_0123456789"
private let now = 1_700_000_000.0

private let dashboardYAML = """
    id: sales
    tiles:
      - {id: orders, type: counter}
      - {id: revenue, type: odometer, decimals: 2}
      - {id: top, type: leaderboard}
      - {id: notice, type: text}
    """

private let stripeYAML = """
    verify: {preset: stripe, secret: '${HOOK_SECRET}'}
    event: /id
    maxBodyBytes: 2048
    rules:
      - when: {/type: charge.succeeded}
        increment: orders
      - when: {/type: charge.succeeded}
        increment: revenue
        amount: /data/object/amount
        scale: 0.01
      - when: {/type: charge.succeeded}
        leaderboard: top
        name: /data/object/customer
      - when: {/type: notice}
        text: notice
        value: /message
    """

private let unsetYAML = """
    verify: {preset: github, secret: '${UNSET_HOOK_SECRET}'}
    rules:
      - increment: orders
    """

private let githubYAML = """
    verify: {preset: github, secret: '${HOOK_SECRET}'}
    event: {header: X-GitHub-Delivery}
    rules:
      - when: {/ref: refs/heads/main}
        increment: orders
        amount: /size
    """

private let charge = #"{"id":"evt_1","type":"charge.succeeded","data":{"object":{"amount":1999,"customer":"Ada"}}}"#

/// An API over a fresh journal with a Stripe-style webhook, on a fixed wall clock and environment.
private final class WebhookFixture: Sendable {
    let folder = TemporaryDirectory()
    let store: MetricStore
    let metrics = ServerMetrics()
    let api: RollboardAPI

    init() throws {
        let configuration = try RollboardConfiguration.parse(
            serverYAML: nil, dashboards: [("config/dashboards/sales.yaml", dashboardYAML)],
            webhooks: [
                ("config/webhooks/stripe.yaml", stripeYAML), ("config/webhooks/unset.yaml", unsetYAML),
                ("config/webhooks/github.yaml", githubYAML),
            ])
        store = try MetricStore(directory: folder.path, logger: Logger(label: "test"), clock: { now })
        var clock = NodeClock.system
        clock.wall = FrameClock(now: { now }, makeTimer: clock.wall.makeTimer)
        api = RollboardAPI(
            configurations: ConfigurationStore(configuration, readerTokens: [], logger: Logger(label: "test")),
            tokens: [], store: store, logger: Logger(label: "test"), metrics: metrics, clock: clock,
            environment: { $0 == "HOOK_SECRET" ? secret : nil })
    }

    deinit {
        store.close()
        folder.remove()
    }

    /// `Stripe-Signature` for `body` signed at `time` (the payload `TIME.BODY`, as Stripe documents it).
    static func stripeSignature(_ body: String, at time: Double = now, key: String = secret) -> String {
        let stamp = String(Int(time))
        let digest = Digest.hmacSHA256(key: Array(key.utf8), message: Array("\(stamp).\(body)".utf8))
        return "t=\(stamp),v1=" + digest.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    func post(_ webhook: String, _ body: String, signature: String?) async -> HTTPResponse {
        await post(webhook, body, headers: signature.map { [("Stripe-Signature", $0)] } ?? [])
    }

    /// A GitHub-style delivery: `X-Hub-Signature-256: sha256=HEX` of the body, and its delivery id.
    func postGitHub(_ body: String, delivery: String?) async -> HTTPResponse {
        let digest = Digest.hmacSHA256(key: Array(secret.utf8), message: Array(body.utf8))
        let signature = "sha256=" + digest.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        return await post(
            "github", body,
            headers: [("X-Hub-Signature-256", signature)] + (delivery.map { [("X-GitHub-Delivery", $0)] } ?? []))
    }

    func post(_ webhook: String, _ body: String, headers extra: [(String, String)]) async -> HTTPResponse {
        var headers: HTTPHeaders = [:]
        headers.add(name: "Content-Type", value: "application/json")
        for (name, value) in extra { headers.add(name: name, value: value) }
        let request = HTTPRequest(method: "POST", target: "/hooks/\(webhook)", headers: headers, body: Array(body.utf8))
        return await withCheckedContinuation { continuation in
            api.handle(request) { continuation.resume(returning: $0) }
        }
    }

    func deliveries(_ outcome: String, webhook: String = "stripe") -> String? {
        let prefix = "rollboard_webhook_deliveries_total{webhook=\"\(webhook)\",outcome=\"\(outcome)\"} "
        return metrics.prometheusText().split(separator: "\n").first { $0.hasPrefix(prefix) }
            .map { String($0.dropFirst(prefix.count)) }
    }
}

/// `POST /hooks/{id}`: a delivery's checks in order, its changes committed once, and its outcome counted.
@Suite("Webhooks API")
struct WebhooksAPITests {
    @Test("a signed event commits every change once durable; its retry changes nothing and is answered the same way")
    func commitsOnce() async throws {
        let fixture = try WebhookFixture()
        let signature = WebhookFixture.stripeSignature(charge)
        let first = await fixture.post("stripe", charge, signature: signature)
        #expect(first.status == .accepted)
        #expect(first.text == #"{"webhook":"stripe","event":"evt_1","changes":3}"#)
        #expect(first.headers["Idempotent-Replayed"] == nil)
        let retry = await fixture.post("stripe", charge, signature: signature)
        #expect(retry.status == .accepted)
        #expect(retry.headers["Idempotent-Replayed"] == "true")
        #expect(fixture.store.current("orders")?.value == 1)
        #expect(fixture.store.current("revenue")?.value == 19.99)
        #expect(fixture.store.leaderboard("top")?.entries.map(\.name) == ["Ada"])
        #expect(fixture.store.leaderboard("top")?.entries.map(\.value) == [1])
        #expect(fixture.deliveries("accepted") == "2")
    }

    @Test("a GitHub delivery's id comes from its X-GitHub-Delivery header: a redelivery counts once, a new id again")
    func gitHubDeliveries() async throws {
        let fixture = try WebhookFixture()
        let push = #"{"ref":"refs/heads/main","size":3}"#
        for delivery in ["d-1", "d-1", "d-2"] {
            let response = await fixture.postGitHub(push, delivery: delivery)
            #expect(response.status == .accepted)
            #expect(response.text.contains(#""event":"\#(delivery)""#))
        }
        #expect(fixture.store.current("orders")?.value == 6)
        let missing = await fixture.postGitHub(push, delivery: nil)
        #expect(missing.status == .unprocessableContent)
        #expect(missing.text.contains("event: no X-GitHub-Delivery header"))
    }

    @Test("another event id counts again")
    func anotherEventCounts() async throws {
        let fixture = try WebhookFixture()
        for event in ["evt_1", "evt_2"] {
            let body = charge.replacingOccurrences(of: "evt_1", with: event)
            #expect(await fixture.post("stripe", body, signature: WebhookFixture.stripeSignature(body)).status == .accepted)
        }
        #expect(fixture.store.current("orders")?.value == 2)
    }

    @Test(
        "a refused delivery is answered with its status and a detail naming the problem, and changes nothing",
        arguments: [
            ("stripe", charge, WebhookFixture.stripeSignature(charge, key: "wrong"), 401, "Stripe-Signature does not match the body", "refused"),
            ("stripe", charge, nil, 401, "no Stripe-Signature header", "refused"),
            ("stripe", charge, WebhookFixture.stripeSignature(charge, at: now - 301), 401, "over the tolerance of 300 s", "refused"),
            ("stripe", String(repeating: " ", count: 2049), "t=1,v1=00", 413, "webhook stripe accepts at most 2048 (maxBodyBytes in config/webhooks/stripe.yaml)", "invalid"),
            ("stripe", "{not json", WebhookFixture.stripeSignature("{not json"), 422, "invalid JSON", "invalid"),
            ("stripe", #"{"id":true}"#, WebhookFixture.stripeSignature(#"{"id":true}"#), 422, "event: /id is", "invalid"),
            ("stripe", #"{"id":"e","type":"charge.succeeded","data":{"object":{"amount":"12","customer":"Ada"}}}"#,
             nil, 422, "amount: /data/object/amount is a string, not a number", "invalid"),
            ("unset", "{}", "sha256=00", 503, "the environment variable UNSET_HOOK_SECRET that verify.secret of config/webhooks/unset.yaml names is not set", "failed"),
        ] as [(String, String, String?, Int, String, String)])
    func refusals(
        webhook: String, body: String, signature: String?, status: Int, detail: String, outcome: String
    ) async throws {
        let fixture = try WebhookFixture()
        let response = await fixture.post(
            webhook, body, signature: signature ?? (status == 422 ? WebhookFixture.stripeSignature(body) : nil))
        #expect(response.status.code == status)
        #expect(response.text.contains(detail), "\(response.text)")
        #expect(!response.text.contains(secret))
        #expect(fixture.store.lastSeq == 0)
        #expect(fixture.deliveries(outcome, webhook: webhook) == "1")
    }

    @Test("a store that refuses the changes gets 503 (the provider retries) and the delivery is counted as failed")
    func storeRefuses() async throws {
        let fixture = try WebhookFixture()
        fixture.store.close()
        let response = await fixture.post("stripe", charge, signature: WebhookFixture.stripeSignature(charge))
        #expect(response.status == .serviceUnavailable)
        #expect(response.text.contains("the store is closed"))
        #expect(fixture.deliveries("failed") == "1")
    }

    @Test("an event no rule matches is answered 200 and counted as ignored")
    func ignored() async throws {
        let fixture = try WebhookFixture()
        let body = #"{"id":"evt_9","type":"customer.created"}"#
        let response = await fixture.post("stripe", body, signature: WebhookFixture.stripeSignature(body))
        #expect(response.status == .ok)
        #expect(response.text == #"{"webhook":"stripe","event":"evt_9","ignored":true}"#)
        #expect(fixture.store.lastSeq == 0)
        #expect(fixture.deliveries("ignored") == "1")
    }

    @Test("an unknown webhook is 404 and not counted (its id is the caller's)")
    func unknownWebhook() async throws {
        let fixture = try WebhookFixture()
        let response = await fixture.post("nope", charge, signature: WebhookFixture.stripeSignature(charge))
        #expect(response.status == .notFound)
        #expect(response.text.contains("unknown_webhook"))
        #expect(!fixture.metrics.prometheusText().contains("webhook=\"nope\""))
    }

    @Test(
        "a value a tile cannot show is 422 naming the pointer it came from and the change; nothing is committed",
        arguments: [
            (#"{"id":"evt_t","type":"notice","message":"a\u0007b"}"#, #"/message: set text notice to \"a\u0007b\": "#),
            (
                #"{"id":"evt_big","type":"charge.succeeded","data":{"object":{"amount":1e22,"customer":"Ada"}}}"#,
                "/data/object/amount: metric revenue: "
            ),
        ])
    func unshowable(body: String, detail: String) async throws {
        let fixture = try WebhookFixture()
        let response = await fixture.post("stripe", body, signature: WebhookFixture.stripeSignature(body))
        #expect(response.status == .unprocessableContent)
        #expect(response.text.contains(detail), "\(response.text)")
        #expect(fixture.store.lastSeq == 0)
    }

    @Test(
        "the idempotency key names the webhook and the event, hashed when it is long or not visible ASCII",
        arguments: [
            ("stripe", "evt_1", "webhook:stripe:evt_1"),
            ("github", "evt_1", "webhook:github:evt_1"),
            ("stripe", "an id with spaces", "webhook-sha256:"),
            ("stripe", String(repeating: "x", count: 200), "webhook-sha256:"),
        ])
    func idempotencyKey(webhook: String, event: String, expected: String) {
        let key = WebhookDelivery.idempotencyKey(webhook: webhook, event: event)
        #expect(key.hasPrefix(expected))
        #expect(key.utf8.count <= WebhookDelivery.longestKey)
        #expect(key.utf8.allSatisfy { (0x21...0x7E).contains($0) })
        #expect(key != WebhookDelivery.idempotencyKey(webhook: webhook + "2", event: event))
    }
}
