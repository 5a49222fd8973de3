#if canImport(Glibc)
    import Glibc
#endif
import Logging
package import RollboardConfig
package import RollboardCore
package import RollboardMetrics
import RollboardNet
package import RollboardStore

/// `POST /hooks/{id}`: a provider's signed delivery, decided by ``WebhookDelivery`` and committed through the same
/// change log calls (and commit deadline) as producer writes: `202` only once every change is durable (a retry of an
/// event already committed gets the same answer and changes nothing), `200 {"ignored":true}` for an event no rule
/// matches, and every answer counted in `rollboard_webhook_deliveries_total`.
struct WebhooksHandler: Sendable {
    let store: any ChangeLog
    let metrics: ServerMetrics?
    let logger: Logger
    /// Reads an environment variable (the webhook's secret) when a delivery is verified.
    let environment: @Sendable (String) -> String?

    /// The process's environment, as the server reads a webhook's secret by default.
    static let processEnvironment: @Sendable (String) -> String? = SourceHeader.processEnvironment

    func deliver(_ context: RequestContext, _ respond: @escaping Respond) throws(APIError) {
        let id = context.parameter("id")
        guard let webhook = context.configuration.webhooks.first(where: { $0.id == id }) else {
            throw .notFound("unknown_webhook", "no webhook \(id) is configured (config/webhooks/\(id).yaml)")
        }
        let metrics = metrics
        let delivery = WebhookDelivery(
            webhook: webhook, catalog: context.configuration.catalog,
            leaderboardLimit: context.configuration.server.limits.maxLeaderboardEntries)
        let secret = WebhookSignature.secret(for: webhook.verify, environment: environment)
        if secret == nil {
            // The variable's name only: there is no value to show, and none ever is.
            logger.error(
                "a webhook delivery cannot be verified: its secret's environment variable is not set",
                metadata: ["webhook": "\(id)", "variable": "\(webhook.verify.secretVariable)"])
        }
        switch delivery.decide(context.request, secret: secret, now: context.clock.wall.now()) {
        case .refuse(let error):
            metrics?.webhookDelivered(id, outcome: WebhookOutcome(status: error.status.code))
            throw error
        case .ignore(let event):
            metrics?.webhookDelivered(id, outcome: .ignored)
            respond(JSONResponse.ok(Self.answer(id, event: event, ["ignored": .bool(true)])))
        case .commit(let plan):
            let counted: Respond = { response in
                metrics?.webhookDelivered(id, outcome: WebhookOutcome(status: response.status.code))
                respond(response)
            }
            Self.commit(plan, webhook: id, step: 0, replayed: true, store: store, CommitDeadline.answer(context, counted))
        }
    }

    /// Commits `plan`'s commits from `step` on, one after the other, and answers once the last is durable (202,
    /// `Idempotent-Replayed: true` when each was an earlier delivery's), or with the first refusal.
    private static func commit(
        _ plan: WebhookDelivery.Plan, webhook: String, step: Int, replayed: Bool, store: any ChangeLog,
        _ respond: @escaping Respond
    ) {
        guard step < plan.commits.count else {
            var response = JSONResponse.accepted(
                answer(webhook, event: plan.event, ["changes": .number(Double(plan.count))]))
            if replayed { response.headers.add(name: "Idempotent-Replayed", value: "true") }
            return respond(response)
        }
        let next = { @Sendable (again: Bool) in
            commit(plan, webhook: webhook, step: step + 1, replayed: replayed && again, store: store, respond)
        }
        switch plan.commits[step] {
        case .metrics(let request, let amounts):
            store.commitMetrics(request) { result in
                switch result {
                case .success(let outcome): next(outcome.replayed.allSatisfy { $0 })
                case .failure(.store(let error)): respond(APIError.storeUnavailable(error).response)
                case .failure(.refused(let item, let field, let reason)):
                    let place = item.map { Self.place(amounts[$0], "metric \(request.metrics[$0].id)") } ?? field
                    respond(APIError.invalidValue("\(place): \(reason)").response)
                case .failure(.repeatedEventID(let item, let earlier)):
                    // A webhook's batch carries no eventId today; refuse rather than trap should one ever do.
                    let place = Self.place(amounts[item], "metric \(request.metrics[item].id)")
                    respond(APIError.invalidValue(
                        "\(place): repeats the event id of metric \(request.metrics[earlier].id)").response)
                }
            }
        case .leaderboard(let request, let amount):
            store.commitLeaderboard(request) { result in
                switch result {
                case .success(let outcome): next(outcome.replayed)
                case .failure(.store(let error)): respond(APIError.storeUnavailable(error).response)
                case .failure(.refused(let refusal)):
                    let place = place(amount, "leaderboard \(request.id)")
                    respond(APIError.invalidValue("\(place): \(refusal.field): \(refusal.reason)").response)
                }
            }
        case .text(let id, let text):
            store.setText(id, text: text, color: nil) { result in
                switch result {
                case .success: next(false)
                case .failure(let error): respond(APIError.storeUnavailable(error).response)
                }
            }
        }
    }

    /// `what`, after the amount pointer its value came from, if any: `/data/object/amount: metric revenue`.
    private static func place(_ pointer: String?, _ what: String) -> String {
        (pointer.map { "\($0): " } ?? "") + what
    }

    /// `{"webhook":…,"event":…,…}` (`event` `null` when the webhook names none).
    private static func answer(_ webhook: String, event: String?, _ extra: KeyValuePairs<String, JSONValue>) -> JSONValue {
        .object(
            [JSONMember("webhook", .string(webhook)), JSONMember("event", event.map(JSONValue.string) ?? .null)]
                + extra.map { JSONMember($0.key, $0.value) })
    }
}
