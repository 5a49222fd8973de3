import RollboardAnimation
package import RollboardCore

extension NumberStyle {
    /// The YAML keys of a number style.
    static let keys = ["locale", "groupSeparator", "decimalSeparator", "currency"]

    /// Reads `locale`, `groupSeparator`, `decimalSeparator` and `currency`; `nil` when one is wrong (reported).
    init?(reader: YAMLMappingReader) {
        self.init()
        var valid = true
        if let name = reader.string("locale") {
            locale = NumberLocale(name)
            if locale == nil {
                reader.report(
                    "locale",
                    "must be one of \(NumberLocale.all.map(\.identifier).joined(separator: ", ")), got \"\(name)\"")
                valid = false
            }
        }
        for key in ["groupSeparator", "decimalSeparator"] {
            guard let separator = reader.string(key) else { continue }
            if let problem = Self.problem(separator: separator) {
                reader.report(key, problem)
                valid = false
            } else if key == "groupSeparator" {
                groupSeparator = separator
            } else if separator.isEmpty {
                reader.report(key, "must not be empty")
                valid = false
            } else {
                decimalSeparator = separator
            }
        }
        if valid, effectiveGroupSeparator == effectiveDecimalSeparator {
            reader.report("groupSeparator", "must differ from the decimal separator \"\(effectiveDecimalSeparator)\"")
            valid = false
        }
        currency = reader.string("currency")
        guard valid else { return nil }
    }
}
