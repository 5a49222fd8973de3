/// A webhook endpoint from `config/webhooks/ID.yaml`: how a provider's signature is verified, where its event id is,
/// and the rules that turn its events into changes (docs/webhooks.md). It is served at `POST /hooks/ID`;
/// `rollboard hooks test` runs a recorded payload through the rules.
public struct WebhookConfiguration: Sendable, Equatable {
    /// Where webhooks are served: `POST /hooks/ID`.
    public static let pathPrefix = "/hooks/"

    /// What a webhook setting is when its file leaves it out, written here only.
    public enum Defaults {
        /// The largest body accepted (1 MiB; Stripe and GitHub events are far smaller).
        public static let maxBodyBytes = 1 << 20
        /// Seconds a Stripe signature's timestamp may differ from now (Stripe's own libraries use 300).
        public static let tolerance = 300.0
    }

    /// How a delivery's signature is checked.
    public enum Preset: String, Sendable, Equatable, CaseIterable {
        /// `Stripe-Signature: t=TIMESTAMP,v1=HEX`: HMAC-SHA256 of `TIMESTAMP.BODY`, the timestamp within `tolerance`.
        case stripe
        /// `X-Hub-Signature-256: sha256=HEX`: HMAC-SHA256 of the body.
        case github
        /// A header of one's choosing holding the hex HMAC-SHA256 of the body (optionally prefixed `sha256=`).
        case hmacSHA256 = "hmac-sha256"
    }

    public struct Verification: Sendable, Equatable {
        public var preset: Preset
        /// The environment variable holding the secret (`secret: ${NAME}`); read only when a delivery is verified,
        /// never at load time, and never shown.
        public var secretVariable: String
        /// The header holding the signature: the preset's own, or the one given for `hmac-sha256`.
        public var header: String
        /// Stripe only: seconds the signed timestamp may differ from now.
        public var tolerance: Double
    }

    /// Where a delivery's event id is: `event: /pointer` in the payload (Stripe's `/id`), or
    /// `event: {header: NAME}` in a request header (GitHub's `X-GitHub-Delivery`).
    public enum EventID: Sendable, Equatable {
        case pointer(String)
        case header(String)
    }

    /// A value a `when` field must equal.
    public enum Expected: Sendable, Equatable, CustomStringConvertible {
        case string(String)
        case number(Double)
        case bool(Bool)

        public var description: String {
            switch self {
            case .string(let text): "\"\(text)\""
            case .number(let number): "\(number)"
            case .bool(let value): value ? "true" : "false"
            }
        }
    }

    /// One `when` condition: the value at `pointer` equals `value`.
    public struct Condition: Sendable, Equatable {
        public var pointer: String
        public var value: Expected
    }

    /// What a matching rule does.
    public enum Action: Sendable, Equatable {
        /// Adds the amount (default 1) to a metric.
        case increment(metric: String)
        /// Sets a metric to the amount.
        case set(metric: String)
        /// Adds the amount (default 1) to the entry of a leaderboard named by the `name` pointer.
        case leaderboard(id: String, name: String)
        /// Sets a text tile's message to the string at the `value` pointer.
        case text(id: String, value: String)
    }

    /// A rule: when every condition holds, the action applies.
    public struct Rule: Sendable, Equatable {
        public var when: [Condition]
        public var action: Action
        /// The JSON Pointer to the amount; `nil` means 1 (not allowed for `set`).
        public var amount: String?
        /// What the amount is multiplied by (Stripe's cents to units: 0.01).
        public var scale: Double

        /// The pointer to the name (a leaderboard rule) or the text (a text rule), else `nil`.
        public var pointer: String? {
            switch action {
            case .leaderboard(_, let name): name
            case .text(_, let value): value
            case .increment, .set: nil
            }
        }
    }

    public var id: String
    public var verify: Verification
    /// Where the provider's event id (the idempotency key) is, if it sends one.
    public var event: EventID?
    public var maxBodyBytes: Int
    public var rules: [Rule]
    /// The file it was read from, for messages.
    public var file: String
}
