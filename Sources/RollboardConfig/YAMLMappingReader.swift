package import RollboardCore
import Yams

/// Reads typed fields from one YAML mapping and reports wrong types, out-of-range values, duplicate and unknown keys.
///
/// Every accessor returns `nil` both when the key is absent and when its value is bad; a bad value has been reported.
struct YAMLMappingReader {
    /// Printed before every problem: the file, and the tile if any.
    let context: String
    /// Printed before each key: empty at the top level, `limits.` inside `limits`.
    let fieldPrefix: String
    let problems: ConfigurationProblems
    private let pairs: [(key: String, value: Node)]

    /// A reader for `node`, or `nil` (reported) if it is not a mapping. `field` names the node itself in messages.
    init?(_ node: Node, context: String, field: String, problems: ConfigurationProblems) {
        guard case .mapping(let mapping) = node else {
            problems.report(context, field, "must be a mapping, got \(node.shortDescription)")
            return nil
        }
        self.context = context
        self.fieldPrefix = field.isEmpty ? "" : field + "."
        self.problems = problems
        var pairs: [(key: String, value: Node)] = []
        for (keyNode, value) in mapping {
            let key = keyNode.scalar?.string ?? keyNode.shortDescription
            if pairs.contains(where: { $0.key == key }) {
                problems.report(context, fieldPrefix + key, "duplicate key")
                continue
            }
            pairs.append((key, value))
        }
        self.pairs = pairs
    }

    /// The keys present, in document order.
    var keys: [String] { pairs.map(\.key) }

    /// Reports every key not in `allowed`, with a suggestion when one is close.
    func rejectUnknownKeys(allowed: [String]) {
        for key in keys where !allowed.contains(key) {
            let suggestion = allowed.min { editDistance(key, $0) < editDistance(key, $1) }
            if let suggestion, editDistance(key, suggestion) <= 2 {
                report(key, "unknown key (did you mean \"\(suggestion)\"?)")
            } else {
                report(key, "unknown key")
            }
        }
    }

    func report(_ key: String, _ message: String) {
        problems.report(context, fieldPrefix + key, message)
    }

    /// The value of `key`; `nil` when absent or null.
    func node(_ key: String) -> Node? {
        guard let value = pairs.first(where: { $0.key == key })?.value else { return nil }
        if case .scalar(let scalar) = value, scalar.style == .plain,
            ["", "~", "null", "Null", "NULL"].contains(scalar.string)
        {
            return nil
        }
        return value
    }

    /// Reports `key` as required when it is absent; returns whether it is present.
    @discardableResult
    func require(_ key: String) -> Bool {
        if node(key) == nil {
            report(key, "is required")
            return false
        }
        return true
    }

    func string(_ key: String) -> String? {
        guard let value = node(key) else { return nil }
        guard case .scalar(let scalar) = value else {
            report(key, "must be a string, got \(value.shortDescription)")
            return nil
        }
        return scalar.string
    }

    func int(_ key: String, in range: ClosedRange<Int>) -> Int? {
        guard let value = node(key) else { return nil }
        guard case .scalar(let scalar) = value, scalar.style == .plain, let number = Int(scalar.string) else {
            report(key, "must be an integer, got \(value.shortDescription)")
            return nil
        }
        guard range.contains(number) else {
            report(key, "must be between \(range.lowerBound) and \(range.upperBound), got \(number)")
            return nil
        }
        return number
    }

    func double(_ key: String, in range: ClosedRange<Double>) -> Double? {
        guard let value = node(key) else { return nil }
        guard case .scalar(let scalar) = value, scalar.style == .plain, let number = Double(scalar.string),
            number.isFinite
        else {
            report(key, "must be a number, got \(value.shortDescription)")
            return nil
        }
        guard range.contains(number) else {
            report(
                key,
                "must be between \(formatNumber(range.lowerBound)) and \(formatNumber(range.upperBound)), "
                    + "got \(formatNumber(number))"
            )
            return nil
        }
        return number
    }

    func bool(_ key: String) -> Bool? {
        guard let value = node(key) else { return nil }
        guard case .scalar(let scalar) = value, scalar.style == .plain, ["true", "false"].contains(scalar.string) else {
            report(key, "must be true or false, got \(value.shortDescription)")
            return nil
        }
        return scalar.string == "true"
    }

    /// A list whose items are all scalars, as strings.
    func strings(_ key: String) -> [String]? {
        guard let items = sequence(key) else { return nil }
        var result: [String] = []
        for (index, item) in items.enumerated() {
            guard case .scalar(let scalar) = item else {
                report("\(key)[\(index)]", "must be a string, got \(item.shortDescription)")
                return nil
            }
            result.append(scalar.string)
        }
        return result
    }

    func sequence(_ key: String) -> [Node]? {
        guard let value = node(key) else { return nil }
        guard case .sequence(let sequence) = value else {
            report(key, "must be a list, got \(value.shortDescription)")
            return nil
        }
        return Array(sequence)
    }

    func mapping(_ key: String) -> YAMLMappingReader? {
        guard let value = node(key) else { return nil }
        return YAMLMappingReader(value, context: context, field: fieldPrefix + key, problems: problems)
    }
}

extension Node {
    /// The node as a problem message shows it: a scalar as written (strings quoted), otherwise its kind.
    var shortDescription: String {
        switch self {
        case .scalar(let scalar):
            scalar.style == .plain ? scalar.string : "\"\(scalar.string)\""
        case .mapping: "a mapping"
        case .sequence: "a list"
        }
    }
}
