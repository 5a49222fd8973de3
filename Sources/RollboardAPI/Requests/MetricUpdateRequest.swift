import RollboardAnimation
package import RollboardConfig
package import RollboardCore
package import RollboardMetrics
import RollboardNet
package import RollboardStore

/// The bodies of metric writes, checked field by field against the catalog of what the tiles can show:
/// `POST /api/v1/metrics/{id}` (one update) and `POST /api/v1/metrics` (a batch). Every refusal names its field.
enum MetricUpdateRequest {
    /// `{"updates":[{"id":…,"value":…},…]}`: 1 to `limit` updates of metrics `token` may write, all or nothing.
    static func batch(
        _ body: JSONValue, catalog: MetricCatalog, token: ProducerToken, limit: Int
    ) throws(APIError) -> [MetricUpdate] {
        try JSONBody.rejectUnknownFields(body, allowed: ["updates"], prefix: "")
        guard let list = body["updates"] else { throw .missingField("updates") }
        guard case .array(let items) = list else { throw .wrongType("updates", expected: "an array", got: list) }
        guard !items.isEmpty else { throw .invalidValue("updates: must not be empty") }
        guard items.count <= limit else {
            throw .invalidValue("updates: at most \(limit) updates per request, got \(items.count)")
        }
        var updates: [MetricUpdate] = []
        for (index, item) in items.enumerated() {
            let field = "updates[\(index)]"
            guard case .object = item else { throw .wrongType(field, expected: "an object", got: item) }
            guard let idValue = item["id"] else { throw .missingField(field + ".id") }
            guard case .string(let id) = idValue else {
                throw .wrongType(field + ".id", expected: "a string", got: idValue)
            }
            switch catalog.kind(of: id) {
            case .metric: break
            case nil: throw .invalidValue("\(field).id: unknown metric \(JSONText.quoted(id)) (no tile shows it)")
            case let kind?:
                throw .invalidValue("\(field).id: \(JSONText.quoted(id)) is a \(kind.rawValue), not a metric")
            }
            guard token.allows(id) else {
                throw .forbidden("\(field).id: this token may not write \(JSONText.quoted(id))")
            }
            updates.append(try update(item, id: id, field: field + ".", catalog: catalog))
        }
        return updates
    }

    /// Reads `value` or `increment`, `interval`, `animated` and `policy` from `object` for metric `id`; `field`
    /// prefixes error fields (empty for a single update, `updates[i].` in a batch, where `id` and `eventId` are
    /// allowed too). An increment's total is checked against the tiles when the change log computes it.
    static func update(
        _ object: JSONValue, id: String, field: String, catalog: MetricCatalog
    ) throws(APIError) -> MetricUpdate {
        let allowed =
            (field.isEmpty ? [] : ["id"]) + ["value", "increment", "interval", "animated", "policy"]
            + (field.isEmpty ? [] : ["eventId"])
        try JSONBody.rejectUnknownFields(object, allowed: allowed, prefix: field)
        var value = 0.0
        var increment: Double?
        switch (object["value"], object["increment"]) {
        case (nil, nil):
            throw .missingField(field + "value")
        case (_?, _?):
            throw .badRequest("\(field)increment: give value or increment, not both")
        case (let valueJSON?, nil):
            value = try finiteNumber(valueJSON, field: field + "value")
            let literal = if case .number(let number) = valueJSON { number.literal } else { formatNumber(value) }
            if let problem = catalog.problem(showing: value, as: id, literal: literal) {
                throw .invalidValue("\(field)value: \(problem)")
            }
        case (nil, let incrementJSON?):
            increment = try finiteNumber(incrementJSON, field: field + "increment")
        }
        var eventID: String?
        if let idJSON = object["eventId"] {
            guard case .string(let text) = idJSON else {
                throw .wrongType(field + "eventId", expected: "a string", got: idJSON)
            }
            eventID = try idempotencyKey(text, field: field + "eventId")
        }
        var interval: Double?
        switch object["interval"] {
        case nil, .null?: break
        case .number(let seconds)?:
            let parsed = seconds.double
            guard parsed.isFinite, parsed > 0, parsed <= 3_600 else {
                throw .invalidValue(
                    "\(field)interval: must be above 0 and at most 3600 seconds, got \(seconds.literal)")
            }
            interval = parsed
        case let other?:
            throw .wrongType(field + "interval", expected: "a number of seconds", got: other)
        }
        var animated = true
        switch object["animated"] {
        case nil, .null?: break
        case .bool(let flag)?: animated = flag
        case let other?: throw .wrongType(field + "animated", expected: "true or false", got: other)
        }
        var policy: QueuePolicy?
        switch object["policy"] {
        case nil, .null?: break
        case .string(let name)?:
            guard let named = QueuePolicy(rawValue: name) else {
                throw .invalidValue("\(field)policy: must be one of fifo, latest, retarget, got \"\(name)\"")
            }
            policy = named
        case let other?: throw .wrongType(field + "policy", expected: "fifo, latest or retarget", got: other)
        }
        return MetricUpdate(
            id: id, value: value, interval: interval, animated: animated, policy: policy, increment: increment,
            eventID: eventID)
    }

    /// A finite JSON number, or the refusal naming `field`.
    static func finiteNumber(_ json: JSONValue, field: String) throws(APIError) -> Double {
        guard case .number(let number) = json else { throw .wrongType(field, expected: "a number", got: json) }
        guard number.double.isFinite else {
            throw .invalidValue("\(field): \(number.literal) is not a finite number")
        }
        return number.double
    }

    /// The longest idempotency key or event id accepted.
    static let maximumKeyLength = 200

    /// `text` as an idempotency key (the `Idempotency-Key` header, an item's `eventId`): 1 to 200 visible ASCII
    /// characters. A refusal shows at most the first ``IdempotencyMemory/shownLength`` characters of what was sent.
    static func idempotencyKey(_ text: String, field: String) throws(APIError) -> String {
        guard !text.isEmpty, text.utf8.count <= maximumKeyLength, text.utf8.allSatisfy({ (0x21...0x7E).contains($0) })
        else {
            let scalars = text.unicodeScalars
            let shown =
                scalars.count > IdempotencyMemory.shownLength
                ? JSONText.quoted(String(String.UnicodeScalarView(scalars.prefix(IdempotencyMemory.shownLength))) + "…")
                    + " (\(text.utf8.count) bytes)"
                : JSONText.quoted(text)
            throw .invalidValue(
                "\(field): must be 1 to \(maximumKeyLength) visible ASCII characters (no spaces), got " + shown)
        }
        return text
    }

    /// The request's `Idempotency-Key` header, checked; `nil` without one. The header given twice (or more) is
    /// refused: which one the producer meant cannot be known.
    static func idempotencyKey(_ request: HTTPRequest) throws(APIError) -> String? {
        let headers = request.headers.values(for: "Idempotency-Key")
        guard let header = headers.first else { return nil }
        guard headers.count == 1 else {
            throw .badRequest("Idempotency-Key: the header is given \(headers.count) times; give it once")
        }
        return try idempotencyKey(header, field: "Idempotency-Key")
    }
}
