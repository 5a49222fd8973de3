package import RollboardConfig
package import RollboardCore

/// A change a webhook event asks for.
package enum WebhookEffect: Equatable, Sendable, CustomStringConvertible {
    case increment(metric: String, by: Double)
    case set(metric: String, to: Double)
    case addToLeaderboard(id: String, name: String, amount: Double)
    case setText(id: String, text: String)

    /// One line, as `rollboard hooks test` prints it.
    package var description: String {
        switch self {
        case .increment(let metric, let amount): "increment \(metric) by \(formatNumber(amount))"
        case .set(let metric, let value): "set \(metric) to \(formatNumber(value))"
        case .addToLeaderboard(let id, let name, let amount):
            "add \(formatNumber(amount)) to \"\(name)\" on leaderboard \(id)"
        case .setText(let id, let text): "set text \(id) to \"\(text)\""
        }
    }
}

/// Why an event cannot be mapped (a 4xx naming it, once the route exists).
package struct WebhookProblem: Error, Equatable, Sendable, CustomStringConvertible {
    package var message: String
    package var description: String { message }
}

/// The mapping of a webhook's events to changes, by its configuration's rules; pure.
package struct WebhookRules: Sendable {
    package let configuration: WebhookConfiguration

    package init(_ configuration: WebhookConfiguration) {
        self.configuration = configuration
    }

    /// The effects of every rule whose conditions all hold, in the rules' order; empty when none matches (the event
    /// is ignored). A pointer that a matching rule needs and that finds nothing, or a value of the wrong type, is a
    /// problem naming the pointer.
    package func evaluate(document: JSONValue) -> Result<[WebhookEffect], WebhookProblem> {
        matches(in: document).map { $0.map(\.effect) }
    }

    /// ``evaluate(document:)`` with the rule each effect comes from (to name its pointers in a refusal).
    package func matches(in document: JSONValue) -> Result<
        [(rule: WebhookConfiguration.Rule, effect: WebhookEffect)], WebhookProblem
    > {
        var effects: [(rule: WebhookConfiguration.Rule, effect: WebhookEffect)] = []
        for rule in configuration.rules where Self.matches(rule, document) {
            switch effect(of: rule, in: document) {
            case .success(let effect): effects.append((rule, effect))
            case .failure(let problem): return .failure(problem)
            }
        }
        return .success(effects)
    }

    /// The provider's event id (the idempotency key): at the `event` pointer, a string or an integer written as
    /// digits; or in the `event` header (`header(name)` gives a request header's value); `nil` when the webhook names
    /// neither.
    package func eventID(in document: JSONValue, header: (String) -> String? = { _ in nil }) -> Result<
        String?, WebhookProblem
    > {
        let pointer: String
        switch configuration.event {
        case nil: return .success(nil)
        case .header(let name)?:
            guard let value = header(name), !value.isEmpty else {
                return .failure(WebhookProblem(message: "event: no \(name) header"))
            }
            return .success(value)
        case .pointer(let path)?: pointer = path
        }
        switch Self.resolve(pointer, in: document) {
        case .string(let text)? where !text.isEmpty:
            return .success(text)
        case .number(let number)? where number.integer != nil:
            return .success(number.literal)
        case let found?:
            return .failure(
                WebhookProblem(message: "event: \(Self.show(pointer)) is \(found.kindDescription), not an event id"))
        case nil:
            return .failure(WebhookProblem(message: "event: \(Self.show(pointer)) finds nothing"))
        }
    }

    private func effect(of rule: WebhookConfiguration.Rule, in document: JSONValue) -> Result<
        WebhookEffect, WebhookProblem
    > {
        let amount: Double
        if let pointer = rule.amount {
            switch Self.resolve(pointer, in: document) {
            case .number(let number)?:
                amount = Self.scaled(number.double, by: rule.scale)
            case let found?:
                return .failure(
                    WebhookProblem(message: "amount: \(Self.show(pointer)) is \(found.kindDescription), not a number"))
            case nil:
                return .failure(WebhookProblem(message: "amount: \(Self.show(pointer)) finds nothing"))
            }
            guard amount.isFinite else {
                return .failure(WebhookProblem(message: "amount: \(Self.show(pointer)) is not a finite number"))
            }
        } else {
            amount = rule.scale
        }
        switch rule.action {
        case .increment(let metric):
            return .success(.increment(metric: metric, by: amount))
        case .set(let metric):
            return .success(.set(metric: metric, to: amount))
        case .leaderboard(let id, let pointer):
            return Self.string(pointer, field: "name", in: document).map {
                WebhookEffect.addToLeaderboard(id: id, name: $0, amount: amount)
            }
        case .text(let id, let pointer):
            return Self.string(pointer, field: "value", in: document).map { WebhookEffect.setText(id: id, text: $0) }
        }
    }

    private static func string(_ pointer: String, field: String, in document: JSONValue) -> Result<
        String, WebhookProblem
    > {
        switch resolve(pointer, in: document) {
        case .string(let text)?: .success(text)
        case let found?:
            .failure(WebhookProblem(message: "\(field): \(show(pointer)) is \(found.kindDescription), not a string"))
        case nil: .failure(WebhookProblem(message: "\(field): \(show(pointer)) finds nothing"))
        }
    }

    private static func matches(_ rule: WebhookConfiguration.Rule, _ document: JSONValue) -> Bool {
        rule.when.allSatisfy { condition in
            switch (condition.value, resolve(condition.pointer, in: document)) {
            case (.string(let expected), .string(let found)?): expected == found
            case (.number(let expected), .number(let found)?): expected == found.double
            case (.number, .string(let found)?): found == condition.literal
            case (.bool(let expected), .bool(let found)?): expected == found
            default: false
            }
        }
    }

    /// `value × scale`, divided instead when the scale is the inverse of a whole number, so that Stripe's 1999 cents
    /// at 0.01 are 19.99 and not 19.990000000000002.
    static func scaled(_ value: Double, by scale: Double) -> Double {
        let inverse = 1 / scale
        if abs(inverse) > 1, inverse.rounded() == inverse, inverse.isFinite { return value / inverse }
        return value * scale
    }

    /// A pointer as messages show it (`""`, the whole document, quoted).
    private static func show(_ pointer: String) -> String {
        pointer.isEmpty ? "\"\" (the whole document)" : pointer
    }

    /// What `pointer` (RFC 6901) refers to in `document` (``JSONPointer/resolve(_:in:)``).
    package static func resolve(_ pointer: String, in document: JSONValue) -> JSONValue? {
        JSONPointer.resolve(pointer, in: document)
    }
}

extension WebhookConfiguration.Condition {
    /// A number condition's text as written, for a provider that sends numbers as strings.
    fileprivate var literal: String {
        guard case .number(let number) = value else { return "" }
        return formatNumber(number)
    }
}
