import RollboardAnimation
package import RollboardConfig
package import RollboardCore
package import RollboardNet
package import RollboardStore

/// What one delivery to `POST /hooks/ID` comes to, decided without I/O from the webhook, the request, the secret and
/// the time: a refusal, an ignored event, or the commits to make. The checks run in the order the issue asks for: the
/// body's size, the secret, the signature (before anything is parsed), then the JSON, the event id and the rules.
struct WebhookDelivery {
    /// One durable commit of a delivery's changes.
    enum Commit: Sendable {
        /// The metric changes, as one batch (one atomic change of the log), with each item's amount pointer (to name
        /// it when the log refuses a total).
        case metrics(MetricCommitRequest, amounts: [String?])
        /// One leaderboard's change, with its amount pointer.
        case leaderboard(LeaderboardCommitRequest, amount: String?)
        /// A text set (not remembered by key: setting it again leaves the same text).
        case text(id: String, text: String)
    }

    /// The commits an event's changes make, in order (metrics, leaderboards, texts), each remembered under an
    /// idempotency key derived from the webhook and the event.
    struct Plan: Sendable {
        /// The provider's event id, if the webhook names where it is.
        var event: String?
        var commits: [Commit] = []
        /// How many changes in all.
        var count: Int
    }

    enum Decision {
        case refuse(APIError)
        /// No rule matches: answered 200 `{"ignored":true}`.
        case ignore(event: String?)
        case commit(Plan)
    }

    /// The longest idempotency key a delivery derives before it hashes the event id instead.
    static let longestKey = 160

    let webhook: WebhookConfiguration
    let catalog: MetricCatalog
    /// The most entries a leaderboard may hold (`limits.maxLeaderboardEntries`).
    let leaderboardLimit: Int

    /// Decides `request` with the secret's bytes (`nil`: its variable is unset) at Unix time `now`.
    func decide(_ request: HTTPRequest, secret: [UInt8]?, now: Double) -> Decision {
        let body = request.body
        guard body.count <= webhook.maxBodyBytes else {
            return .refuse(
                APIError(
                    status: .contentTooLarge, code: "content_too_large",
                    detail: "the body has \(body.count) bytes; webhook \(webhook.id) accepts at most "
                        + "\(webhook.maxBodyBytes) (maxBodyBytes in \(webhook.file))"))
        }
        guard let secret else {
            return .refuse(
                APIError(
                    status: .serviceUnavailable, code: "webhook_secret_unset",
                    detail: "the environment variable \(webhook.verify.secretVariable) that verify.secret of "
                        + "\(webhook.file) names is not set on this server; deliveries cannot be verified",
                    headers: [("Retry-After", "60")]))
        }
        let verified = WebhookSignature.verify(
            webhook.verify, secret: secret, header: { request.headers[$0] }, body: body, now: now)
        if case .failure(let refusal) = verified {
            return .refuse(
                APIError(status: .unauthorized, code: "invalid_signature", detail: refusal.description))
        }
        let document: JSONValue
        do {
            document = try JSONParser.parse(body)
        } catch {
            return .refuse(.invalidValue("invalid JSON: \(error)"))
        }
        let rules = WebhookRules(webhook)
        let event: String?
        switch rules.eventID(in: document, header: { request.headers[$0] }) {
        case .success(let id): event = id
        case .failure(let problem): return .refuse(.invalidValue(problem.message))
        }
        switch rules.matches(in: document) {
        case .failure(let problem):
            return .refuse(.invalidValue(problem.message))
        case .success(let effects) where effects.isEmpty:
            return .ignore(event: event)
        case .success(let effects):
            return plan(effects, event: event)
        }
    }

    /// The commits of `effects`, or a refusal naming a value a tile cannot show (and the pointer it came from).
    private func plan(
        _ effects: [(rule: WebhookConfiguration.Rule, effect: WebhookEffect)], event: String?
    ) -> Decision {
        let key = event.map { Self.idempotencyKey(webhook: webhook.id, event: $0) }
        var metrics: [StoredMetric] = []
        var amounts: [String?] = []
        var boards: [Commit] = []
        var texts: [Commit] = []
        var plan = Plan(event: event, count: effects.count)
        let catalog = catalog
        for (rule, effect) in effects {
            func refusal(_ problem: String, _ pointer: String?) -> Decision {
                .refuse(.invalidValue((pointer.map { "\($0): " } ?? "") + "\(effect): \(problem)"))
            }
            switch effect {
            case .increment(let metric, let amount):
                metrics.append(MetricUpdate(id: metric, value: 0, increment: amount).stored)
                amounts.append(rule.amount)
            case .set(let metric, let value):
                if let problem = catalog.problem(showing: value, as: metric) { return refusal(problem, rule.amount) }
                metrics.append(MetricUpdate(id: metric, value: value).stored)
                amounts.append(rule.amount)
            case .addToLeaderboard(let id, let name, let amount):
                if let problem = DisplayText.name.problem(with: name) { return refusal(problem, rule.pointer) }
                // Each board's commit is remembered under its own key: one key names one request.
                let boardKey = key.map { "\($0)#\(boards.count)" }
                let request = LeaderboardCommitRequest(
                    id: id, edit: .increment([LeaderboardEntry(name: name, value: amount)]), limit: leaderboardLimit,
                    requestKey: boardKey, problem: { catalog.problem(showing: $0, as: id) })
                boards.append(.leaderboard(request, amount: rule.amount))
            case .setText(let id, let text):
                if let problem = DisplayText.text.problem(with: text, allowsEmpty: true) {
                    return refusal(problem, rule.pointer)
                }
                texts.append(.text(id: id, text: text))
            }
        }
        if !metrics.isEmpty {
            let request = MetricCommitRequest(
                metrics: metrics, requestKey: key, problem: { id, total in catalog.problem(showing: total, as: id) })
            plan.commits.append(.metrics(request, amounts: amounts))
        }
        plan.commits += boards + texts
        return .commit(plan)
    }

    /// The idempotency key of `event` at `webhook`: `webhook:ID:EVENT`, or, when that is long or not visible ASCII,
    /// `webhook-sha256:` and the hex SHA-256 of both (so two webhooks' events never share a key).
    static func idempotencyKey(webhook: String, event: String) -> String {
        let key = "webhook:\(webhook):\(event)"
        if key.utf8.count <= longestKey, key.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) { return key }
        return "webhook-sha256:" + SHA256.hex(webhook + "\u{0}" + event)
    }
}
