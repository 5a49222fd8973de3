import Testing

@testable import RollboardConfig
@testable import RollboardCore

private let dashboardFile = "config/dashboards/sales.yaml"
/// The sales dashboard every webhook suite's rules point at (WebhookRulesTests uses it too).
let webhookSalesDashboardYAML = """
    id: sales
    title: Sales
    grid: {columns: 4, rows: 2}
    tiles:
      - {id: orders, type: counter, position: {column: 1, row: 1}}
      - {id: revenue, type: odometer, decimals: 2, position: {column: 2, row: 1}}
      - {id: top, type: leaderboard, position: {column: 3, row: 1}}
      - {id: notice, type: text, position: {column: 4, row: 1}}
      - {id: mood, type: wheel, contents: [ok, bad], position: {column: 1, row: 2}}
    """

private func parse(_ webhooks: [(String, String)]) throws(ConfigurationError) -> RollboardConfiguration {
    try RollboardConfiguration.parse(serverYAML: nil, dashboards: [(dashboardFile, webhookSalesDashboardYAML)], webhooks: webhooks)
}

private func problems(_ yaml: String, file: String = "config/webhooks/stripe.yaml") -> [String] {
    do {
        _ = try parse([(file, yaml)])
        return []
    } catch {
        return error.problems
    }
}

private let stripeVerify = "verify: {preset: stripe, secret: '${STRIPE_SECRET}'}\n"

/// `config/webhooks/*.yaml`: what a webhook file says, and every mistake named by file and field.
@Suite("Webhook configuration")
struct WebhookConfigurationTests {
    @Test("a Stripe webhook is read with its defaults, its conditions typed and its rules in order")
    func stripeExample() throws {
        let yaml = """
            verify: {preset: stripe, secret: '${STRIPE_SECRET}'}
            event: /id
            rules:
              - when: {/type: charge.succeeded, /livemode: true}
                increment: orders
              - when: {/type: charge.succeeded}
                increment: revenue
                amount: /data/object/amount
                scale: 0.01
              - when: {/type: "charge.refunded", /data/object/amount: 0}
                set: revenue
                amount: /data/object/amount
              - {leaderboard: top, name: /data/object/customer}
              - {text: notice, value: /data/object/description}
            """
        let webhook = try #require(parse([("config/webhooks/stripe.yaml", yaml)]).webhooks.first)
        #expect(webhook.id == "stripe")
        #expect(
            webhook.verify
                == .init(preset: .stripe, secretVariable: "STRIPE_SECRET", header: "Stripe-Signature", tolerance: 300))
        #expect(webhook.event == .pointer("/id"))
        #expect(webhook.maxBodyBytes == WebhookConfiguration.Defaults.maxBodyBytes)
        #expect(webhook.rules.count == 5)
        #expect(
            webhook.rules[0].when == [
                .init(pointer: "/type", value: .string("charge.succeeded")),
                .init(pointer: "/livemode", value: .bool(true)),
            ])
        #expect(webhook.rules[0].action == .increment(metric: "orders"))
        #expect(webhook.rules[0].amount == nil && webhook.rules[0].scale == 1)
        #expect(webhook.rules[1].amount == "/data/object/amount" && webhook.rules[1].scale == 0.01)
        #expect(webhook.rules[2].when[1] == .init(pointer: "/data/object/amount", value: .number(0)))
        #expect(webhook.rules[2].action == .set(metric: "revenue"))
        #expect(webhook.rules[3].action == .leaderboard(id: "top", name: "/data/object/customer"))
        #expect(webhook.rules[3].when.isEmpty)
        #expect(webhook.rules[4].action == .text(id: "notice", value: "/data/object/description"))
    }

    @Test("GitHub and generic presets name their header; a Stripe tolerance and a body limit can be given")
    func presets() throws {
        let github = "verify: {preset: github, secret: '${GH}'}\nrules: [{increment: orders}]\n"
        #expect(try parse([("config/webhooks/gh.yaml", github)]).webhooks.first?.verify.header == "X-Hub-Signature-256")
        let generic =
            "verify: {preset: hmac-sha256, secret: '${S}', header: X-Signature}\nrules: [{increment: orders}]\n"
        #expect(try parse([("config/webhooks/g.yaml", generic)]).webhooks.first?.verify.header == "X-Signature")
        let stripe =
            "verify: {preset: stripe, secret: '${S}', tolerance: 5m}\nmaxBodyBytes: 4096\nrules: [{increment: orders}]\n"
        let webhook = try #require(parse([("config/webhooks/s.yaml", stripe)]).webhooks.first)
        #expect(webhook.verify.tolerance == 300 && webhook.maxBodyBytes == 4096)
    }

    @Test("the event id is at a pointer in the payload, or in a request header (GitHub's X-GitHub-Delivery)")
    func eventID() throws {
        let header = "verify: {preset: github, secret: '${GH}'}\nevent: {header: X-GitHub-Delivery}\nrules: [{increment: orders}]\n"
        #expect(try parse([("config/webhooks/gh.yaml", header)]).webhooks.first?.event == .header("X-GitHub-Delivery"))
        let pointer = "verify: {preset: github, secret: '${GH}'}\nevent: /delivery/id\nrules: [{increment: orders}]\n"
        #expect(try parse([("config/webhooks/gh.yaml", pointer)]).webhooks.first?.event == .pointer("/delivery/id"))
        let none = "verify: {preset: github, secret: '${GH}'}\nrules: [{increment: orders}]\n"
        #expect(try parse([("config/webhooks/gh.yaml", none)]).webhooks.first?.event == nil)
    }

    @Test("the secret's environment variable is not needed to load the configuration")
    func secretNotRead() throws {
        let yaml =
            "verify: {preset: github, secret: '${ROLLBOARD_TEST_SURELY_UNSET_VARIABLE}'}\nrules: [{increment: orders}]\n"
        #expect(
            try parse([("config/webhooks/gh.yaml", yaml)]).webhooks.first?.verify.secretVariable
                == "ROLLBOARD_TEST_SURELY_UNSET_VARIABLE")
    }

    @Test("two files with the same id are refused")
    func duplicateID() {
        let yaml = stripeVerify + "rules: [{increment: orders}]\n"
        do {
            _ = try parse([
                ("config/webhooks/a.yaml", "id: pay\n" + yaml), ("config/webhooks/b.yaml", "id: pay\n" + yaml),
            ])
            Issue.record("a duplicate id was accepted")
        } catch {
            #expect(
                error.problems == [
                    "config/webhooks/b.yaml: id: duplicate webhook id \"pay\", already used by config/webhooks/a.yaml"
                ])
        }
    }

    @Test(
        "mistakes are named by file and field, and a secret written in the file is never repeated",
        arguments: [
            ("rules: [{increment: orders}]", "config/webhooks/stripe.yaml: verify: is required"),
            (
                "verify: {preset: paypal, secret: '${S}'}\nrules: [{increment: orders}]",
                "config/webhooks/stripe.yaml: verify.preset: must be one of stripe, github, hmac-sha256, got \"paypal\""
            ),
            (
                "verify: {preset: stripe, secret: whsec_abc123}\nrules: [{increment: orders}]",
                "config/webhooks/stripe.yaml: verify.secret: must name an environment variable as ${NAME}; the secret itself does not belong in a file"
            ),
            (
                "verify: {preset: hmac-sha256, secret: '${S}'}\nrules: [{increment: orders}]",
                "config/webhooks/stripe.yaml: verify.header: is required with preset hmac-sha256"
            ),
            (
                "verify: {preset: github, secret: '${S}', header: X-Sig}\nrules: [{increment: orders}]",
                "config/webhooks/stripe.yaml: verify.header: is for preset hmac-sha256; github uses X-Hub-Signature-256"
            ),
            (
                "verify: {preset: github, secret: '${S}', tolerance: 5m}\nrules: [{increment: orders}]",
                "config/webhooks/stripe.yaml: verify.tolerance: is for preset stripe; github signatures carry no timestamp"
            ),
            (
                stripeVerify + "event: id\nrules: [{increment: orders}]",
                "config/webhooks/stripe.yaml: event: must be a JSON Pointer: empty, or starting with / (~0 for ~, ~1 for /), or {header: NAME}"
            ),
            (
                stripeVerify + "event: {header: 'X Delivery'}\nrules: [{increment: orders}]",
                "config/webhooks/stripe.yaml: event.header: must be a header name, got \"X Delivery\""
            ),
            (
                stripeVerify + "event: {header: X-GitHub-Delivery, pointer: /id}\nrules: [{increment: orders}]",
                "config/webhooks/stripe.yaml: event.pointer: unknown key"
            ),
            (stripeVerify + "rules: []", "config/webhooks/stripe.yaml: rules: must list at least one rule"),
            (
                stripeVerify + "rules: [{increment: nothing}]",
                "config/webhooks/stripe.yaml: rules[0].increment: \"nothing\" is not shown by an odometer, counter, gauge or chart tile of any dashboard"
            ),
            (
                stripeVerify + "rules: [{increment: top}]",
                "config/webhooks/stripe.yaml: rules[0].increment: \"top\" is not shown by an odometer, counter, gauge or chart tile of any dashboard"
            ),
            (
                stripeVerify + "rules: [{leaderboard: orders, name: /n}]",
                "config/webhooks/stripe.yaml: rules[0].leaderboard: \"orders\" is not shown by a leaderboard tile of any dashboard"
            ),
            (
                stripeVerify + "rules: [{text: mood, value: /v}]",
                "config/webhooks/stripe.yaml: rules[0].text: \"mood\" is not shown by a text tile of any dashboard"
            ),
            (
                stripeVerify + "rules: [{set: revenue}]",
                "config/webhooks/stripe.yaml: rules[0].amount: is required: the pointer to the value to set"
            ),
            (stripeVerify + "rules: [{leaderboard: top}]", "config/webhooks/stripe.yaml: rules[0].name: is required"),
            (
                stripeVerify + "rules: [{text: notice, value: /v, amount: /a}]",
                "config/webhooks/stripe.yaml: rules[0].amount: is not used by a text rule"
            ),
            (
                stripeVerify + "rules: [{increment: orders, set: revenue, amount: /a}]",
                "config/webhooks/stripe.yaml: rules[0].set: a rule does one thing: increment and set are both given"
            ),
            (
                stripeVerify + "rules: [{when: {/type: x}}]",
                "config/webhooks/stripe.yaml: rules[0].increment: a rule needs one of increment, set, leaderboard or text"
            ),
            (
                stripeVerify + "rules: [{when: {type: x}, increment: orders}]",
                "config/webhooks/stripe.yaml: rules[0].when.type: must be a JSON Pointer: empty, or starting with / (~0 for ~, ~1 for /)"
            ),
            (
                stripeVerify + "rules: [{when: {/type: [a]}, increment: orders}]",
                "config/webhooks/stripe.yaml: rules[0].when./type: must be a string, number or true/false, got a list"
            ),
            (
                stripeVerify + "rules: [{increment: orders, amount: amount}]",
                "config/webhooks/stripe.yaml: rules[0].amount: must be a JSON Pointer: empty, or starting with / (~0 for ~, ~1 for /)"
            ),
            (
                stripeVerify + "rules: [{increment: orders, scael: 2}]",
                "config/webhooks/stripe.yaml: rules[0].scael: unknown key (did you mean \"scale\"?)"
            ),
            (
                stripeVerify + "maxBodyBytes: 0\nrules: [{increment: orders}]",
                "config/webhooks/stripe.yaml: maxBodyBytes: must be between 1 and 67108864, got 0"
            ),
        ])
    func mistakes(_ yaml: String, expected: String) {
        let found = problems(yaml)
        #expect(found == [expected])
        #expect(!found.joined().contains("whsec_abc123"))
    }
}
