package import RollboardCore

extension YAMLMappingReader {
    /// The case of `Choice` that `key` names, `nil` when absent; `ok` is false when the key is there but names none
    /// (reported: "must be one of …, got …").
    func choice<Choice: RawRepresentable & CaseIterable>(_ key: String, of _: Choice.Type) -> (value: Choice?, ok: Bool)
    where Choice.RawValue == String {
        guard let name = string(key) else { return (nil, node(key) == nil) }
        if let value = Choice(rawValue: name) { return (value, true) }
        report(key, "must be one of \(Choice.allCases.map(\.rawValue).joined(separator: ", ")), got \"\(name)\"")
        return (nil, false)
    }
}
