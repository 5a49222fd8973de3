import RollboardNet
/// A JSON document as parsed by `JSONParser` or built for a response; objects keep their key order.
package enum JSONValue: Equatable {
    case null
    case bool(Bool)
    /// A number with its literal text (so `1e400` can be quoted back in an error).
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object([JSONMember])

    /// A number built from a finite `Double`.
    package static func number(_ value: Double) -> JSONValue {
        .number(JSONNumber(value))
    }

    package static func number(_ value: some BinaryInteger) -> JSONValue {
        .number(JSONNumber(literal: String(value)))
    }

    /// An optional value, `null` when absent.
    package static func optional(_ value: JSONValue?) -> JSONValue {
        value ?? .null
    }

    /// The member `key` of an object.
    package subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The kind of value, as error messages name it ("a string", "an object").
    package var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// Compact JSON text.
    package var serialized: String {
        var output = ""
        write(to: &output)
        return output
    }

    private func write(to output: inout String) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .number(let number): output += number.literal
        case .string(let text): output += JSONText.quoted(text)
        case .array(let items):
            output += "["
            for (index, item) in items.enumerated() {
                if index > 0 { output += "," }
                item.write(to: &output)
            }
            output += "]"
        case .object(let members):
            output += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { output += "," }
                output += JSONText.quoted(member.key)
                output += ":"
                member.value.write(to: &output)
            }
            output += "}"
        }
    }
}
