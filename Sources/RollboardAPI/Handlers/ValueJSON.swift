package import RollboardConfig
package import RollboardCore
package import RollboardHub
import RollboardNet
package import RollboardStore

/// How stored values read in the API's answers.
enum ValueJSON {
    /// `{"id":…}` with `null` for each of `fields` and then `extra`: a value no producer has set yet.
    static func unset(_ id: String, _ fields: [String], then extra: [JSONMember] = []) -> JSONValue {
        .object([JSONMember("id", .string(id))] + fields.map { JSONMember($0, .null) } + extra)
    }

    static func metric(_ metric: StoredMetric) -> JSONValue {
        .object([
            JSONMember("id", .string(metric.id)),
            JSONMember("value", .number(metric.value)),
            JSONMember("seq", .number(metric.seq)),
            JSONMember("updatedAt", .string(iso8601(metric.updatedAt))),
        ])
    }

    /// A metric as a write's answer gives it: without `updatedAt`.
    static func written(_ metric: StoredMetric) -> JSONValue {
        .object([
            JSONMember("id", .string(metric.id)),
            JSONMember("value", .number(metric.value)),
            JSONMember("seq", .number(metric.seq)),
        ])
    }

    static func wheel(_ wheel: StoredWheel, withTime: Bool = true) -> JSONValue {
        let target: JSONMember =
            switch wheel.target {
            case .progress(let progress): JSONMember("progress", .number(progress))
            case .index(let index): JSONMember("index", .number(index))
            }
        var members = [JSONMember("id", .string(wheel.id)), target, JSONMember("seq", .number(wheel.seq))]
        if withTime { members.append(JSONMember("updatedAt", .string(iso8601(wheel.updatedAt)))) }
        return .object(members)
    }

    /// `{"id","text","color","seq","updatedAt"}`; all but `id` are `null` until a producer sets the text.
    static func text(_ text: StoredText?, id: String, withTime: Bool = true) -> JSONValue {
        var members = [
            JSONMember("id", .string(id)),
            JSONMember("text", .optional(text.map { .string($0.text) })),
            JSONMember("color", .optional(text?.color.map(JSONValue.string))),
            JSONMember("seq", .optional(text.map { .number($0.seq) })),
        ]
        if withTime { members.append(JSONMember("updatedAt", .optional(text.map { .string(iso8601($0.updatedAt)) }))) }
        return .object(members)
    }
}
