package import RollboardCore

extension YAMLMappingReader {
    /// The string at `key` if a screen can draw it as `kind` (``DisplayText``); `nil` when absent, or when it is not
    /// (reported, naming the field).
    func displayText(_ key: String, as kind: DisplayText, allowsEmpty: Bool = false) -> String? {
        guard let text = string(key) else { return nil }
        if let problem = kind.problem(with: text, allowsEmpty: allowsEmpty) {
            report(key, problem)
            return nil
        }
        return text
    }

    /// The list of strings at `key`, each a name a screen can draw (``DisplayText/name``); `nil` when absent, or
    /// when one is not (reported as `key[index]`).
    func displayNames(_ key: String) -> [String]? {
        guard let names = strings(key) else { return nil }
        for (index, name) in names.enumerated() {
            if let problem = DisplayText.name.problem(with: name) {
                report("\(key)[\(index)]", problem)
                return nil
            }
        }
        return names
    }
}
