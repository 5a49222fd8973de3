import Testing

@testable import RollboardAPI
@testable import RollboardConfig
@testable import RollboardCore

private let dashboardYAML = webhookSalesDashboardYAML

private let webhookYAML = """
    verify: {preset: stripe, secret: '${STRIPE_SECRET}'}
    event: /id
    rules:
      - when: {/type: charge.succeeded}
        increment: orders
      - when: {/type: charge.succeeded}
        increment: revenue
        amount: /data/object/amount
        scale: 0.01
      - when: {/type: balance.updated}
        set: revenue
        amount: /balance
      - when: {/type: charge.succeeded, /data/object/paid: true}
        leaderboard: top
        name: /data/object/customer
        amount: /data/object/amount
        scale: 0.01
      - when: {/type: notice, /level: 2}
        text: notice
        value: /message
    """

private func rules() throws -> WebhookRules {
    let configuration = try RollboardConfiguration.parse(
        serverYAML: nil, dashboards: [("config/dashboards/sales.yaml", dashboardYAML)],
        webhooks: [("config/webhooks/stripe.yaml", webhookYAML)])
    return WebhookRules(try #require(configuration.webhooks.first))
}

private func document(_ json: String) throws -> JSONValue {
    try JSONParser.parse(Array(json.utf8))
}

/// `WebhookRules`: an event's payload to the changes it asks for, by JSON Pointers; pure.
@Suite("Webhook rules")
struct WebhookRulesTests {
    @Test(
        "events map to the effects of every matching rule, in order",
        arguments: [
            (
                #"{"id":"evt_1","type":"charge.succeeded","data":{"object":{"amount":1999,"paid":true,"customer":"Ada"}}}"#,
                [
                    WebhookEffect.increment(metric: "orders", by: 1), .increment(metric: "revenue", by: 19.99),
                    .addToLeaderboard(id: "top", name: "Ada", amount: 19.99),
                ]
            ),
            (
                #"{"id":"evt_2","type":"charge.succeeded","data":{"object":{"amount":500,"paid":false,"customer":"Bo"}}}"#,
                [.increment(metric: "orders", by: 1), .increment(metric: "revenue", by: 5)]
            ),
            (#"{"id":"evt_3","type":"balance.updated","balance":-12.5}"#, [.set(metric: "revenue", to: -12.5)]),
            (
                #"{"id":"evt_4","type":"notice","level":2,"message":"Record day"}"#,
                [.setText(id: "notice", text: "Record day")]
            ),
            (
                #"{"id":"evt_5","type":"notice","level":"2","message":"Numbers sent as strings match too"}"#,
                [.setText(id: "notice", text: "Numbers sent as strings match too")]
            ),
            (#"{"id":"evt_6","type":"notice","level":3,"message":"Another level"}"#, []),
            (#"{"id":"evt_7","type":"customer.created"}"#, []),
            (#"{"id":"evt_8"}"#, []),
            (#"[1, 2, 3]"#, []),
        ])
    func effects(_ json: String, expected: [WebhookEffect]) throws {
        #expect(try rules().evaluate(document: document(json)) == .success(expected))
    }

    @Test(
        "a pointer a matching rule needs that finds the wrong type or nothing is a problem naming the pointer",
        arguments: [
            (
                #"{"type":"charge.succeeded","data":{"object":{"amount":"1999"}}}"#,
                "amount: /data/object/amount is a string, not a number"
            ),
            (#"{"type":"charge.succeeded","data":{}}"#, "amount: /data/object/amount finds nothing"),
            (#"{"type":"balance.updated","balance":null}"#, "amount: /balance is null, not a number"),
            (
                #"{"type":"charge.succeeded","data":{"object":{"amount":1,"paid":true,"customer":7}}}"#,
                "name: /data/object/customer is a number, not a string"
            ),
            (#"{"type":"notice","level":2,"message":["a"]}"#, "value: /message is an array, not a string"),
        ])
    func problems(_ json: String, expected: String) throws {
        #expect(try rules().evaluate(document: document(json)) == .failure(WebhookProblem(message: expected)))
    }

    @Test(
        "the event id is a string or an integer at the event pointer; anything else is a problem",
        arguments: [
            (#"{"id":"evt_1"}"#, Result<String?, WebhookProblem>.success("evt_1")),
            (#"{"id":12345}"#, .success("12345")),
            (#"{"id":1.5}"#, .failure(WebhookProblem(message: "event: /id is a number, not an event id"))),
            (#"{"id":""}"#, .failure(WebhookProblem(message: "event: /id is a string, not an event id"))),
            (#"{"type":"x"}"#, .failure(WebhookProblem(message: "event: /id finds nothing"))),
        ])
    func eventID(_ json: String, expected: Result<String?, WebhookProblem>) throws {
        #expect(try rules().eventID(in: document(json)) == expected)
    }

    @Test("an event id from a header is the header's value; a missing or empty header is a problem naming it")
    func eventIDFromHeader() throws {
        var configuration = try rules().configuration
        configuration.event = .header("X-GitHub-Delivery")
        let rules = WebhookRules(configuration)
        let body = try document("{}")
        #expect(rules.eventID(in: body, header: { $0 == "X-GitHub-Delivery" ? "72d3162e" : nil }) == .success("72d3162e"))
        let problem = Result<String?, WebhookProblem>.failure(WebhookProblem(message: "event: no X-GitHub-Delivery header"))
        #expect(rules.eventID(in: body, header: { _ in nil }) == problem)
        #expect(rules.eventID(in: body, header: { _ in "" }) == problem)
    }

    @Test("pointers follow RFC 6901: escapes, array indexes without leading zeros")
    func pointers() throws {
        let value = try document(#"{"a/b":{"m~n":[10,20]},"":1}"#)
        #expect(WebhookRules.resolve("/a~1b/m~0n/1", in: value) == .number(20))
        #expect(WebhookRules.resolve("/a~1b/m~0n/01", in: value) == nil)
        #expect(WebhookRules.resolve("/a~1b/m~0n/2", in: value) == nil)
        #expect(WebhookRules.resolve("/", in: value) == .number(1))
        #expect(WebhookRules.resolve("", in: value) == value)
    }

    @Test("a scale that is the inverse of a whole number divides, so cents become exact units")
    func scaling() {
        #expect(WebhookRules.scaled(1999, by: 0.01) == 19.99)
        #expect(WebhookRules.scaled(3, by: 2.5) == 7.5)
        #expect(WebhookRules.scaled(7, by: 1) == 7)
    }
}
