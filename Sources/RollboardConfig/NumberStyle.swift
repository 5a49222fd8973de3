public import RollboardAnimation

/// How an odometer or counter writes its number: a locale's separators and currency position, or separators of its
/// own.
public struct NumberStyle: Sendable, Equatable {
    /// A locale of ``NumberLocale/all`` (`en-US`, `de-DE`, `fr-FR`, …); `nil` keeps `,` and `.`.
    public var locale: NumberLocale?
    /// Between groups of three integer digits; wins over the locale's. An empty string groups nothing.
    public var groupSeparator: String?
    /// Between integer and fraction; wins over the locale's.
    public var decimalSeparator: String?
    /// A currency symbol (`$`, `€`, `CHF`), placed where the locale puts it, else before the number.
    public var currency: String?

    public init(
        locale: NumberLocale? = nil, groupSeparator: String? = nil, decimalSeparator: String? = nil,
        currency: String? = nil
    ) {
        self.locale = locale
        self.groupSeparator = groupSeparator
        self.decimalSeparator = decimalSeparator
        self.currency = currency
    }

    /// The group separator in force: the tile's, else the locale's, else none (empty).
    public var effectiveGroupSeparator: String { groupSeparator ?? locale?.groupSeparator ?? "" }

    /// The group separator in force for a number written by grouping pattern `pattern`: the tile's, else the
    /// locale's, else the pattern's own (`,`, or `.` where the decimal separator is `,`); none without a pattern.
    public func groupSeparator(forPattern pattern: String?) -> String {
        if let separator = groupSeparator ?? locale?.groupSeparator { return separator }
        guard pattern != nil else { return "" }
        return effectiveDecimalSeparator == "," ? "." : ","
    }

    /// The decimal separator in force: the tile's, else the locale's, else `.`.
    public var effectiveDecimalSeparator: String { decimalSeparator ?? locale?.decimalSeparator ?? "." }

    /// The text before and after the number: `prefix` and `suffix` with the currency placed between them and the
    /// number.
    public func affixes(prefix: String, suffix: String) -> (prefix: String, suffix: String) {
        guard let currency else { return (prefix, suffix) }
        let placed = locale?.placing(currency: currency) ?? (prefix: currency, suffix: "")
        return (prefix + placed.prefix, placed.suffix + suffix)
    }

    /// Why `separator` cannot separate digits, or `nil`: at most 3 characters, no digits, no minus.
    static func problem(separator: String) -> String? {
        if separator.count > 3 { return "must be at most 3 characters, got \"\(separator)\"" }
        if separator.contains(where: { $0.isNumber || $0 == "-" || $0 == "\u{2212}" }) {
            return "must not contain digits or a minus sign, got \"\(separator)\""
        }
        return nil
    }
}
