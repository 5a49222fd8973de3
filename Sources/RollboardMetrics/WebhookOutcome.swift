/// How a webhook delivery was answered, as `rollboard_webhook_deliveries_total` counts it.
public enum WebhookOutcome: String, Sendable, CaseIterable, Comparable {
    /// Its changes are durable (2xx), or an earlier delivery of the same event's were (a retry).
    case accepted
    /// No rule matches its event (2xx, nothing changed).
    case ignored
    /// Its signature is missing, malformed, too old or wrong (401).
    case refused
    /// Its body is too large, not JSON, or its pointers find the wrong thing (4xx).
    case invalid
    /// The server could not take it: the secret's variable is unset, or the store refused (5xx; the provider retries).
    case failed

    /// The outcome of an answer with `status` (a 2xx is `accepted`: an ignored event is counted as such by name).
    public init(status: Int) {
        switch status {
        case 200..<300: self = .accepted
        case 401: self = .refused
        case 400..<500: self = .invalid
        default: self = .failed
        }
    }

    public static func < (lhs: WebhookOutcome, rhs: WebhookOutcome) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    /// The counter's samples, per webhook and outcome, in order.
    static func samples(_ counts: [String: [WebhookOutcome: Int]]) -> [(String, String)] {
        counts.sorted { $0.key < $1.key }.flatMap { webhook, outcomes in
            outcomes.sorted { $0.key < $1.key }.map { outcome, count in
                ("{webhook=\"\(webhook)\",outcome=\"\(outcome.rawValue)\"}", "\(count)")
            }
        }
    }
}
