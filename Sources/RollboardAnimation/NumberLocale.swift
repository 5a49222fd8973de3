/// How a place writes numbers and money: the grouping separator, the decimal mark, and where a currency symbol goes.
///
/// The table holds the locales a wall screen is most often set up for; the facts are those of CLDR's `latn` number
/// symbols (for example, French groups with a narrow no-break space and German with a full stop).
public struct NumberLocale: Hashable, Sendable {
    /// The BCP 47 tag, such as `de-DE`.
    public let identifier: String
    /// Between groups of three integer digits.
    public let groupSeparator: String
    /// Between the integer and the fraction.
    public let decimalSeparator: String
    /// Whether a currency symbol comes before the number (`$1.00`) rather than after it (`1,00 €`).
    public let currencyBefore: Bool
    /// Between the currency symbol and the number: empty, a space or a no-break space.
    public let currencySpacing: String

    /// The locale for `identifier` (case-insensitive, `_` accepted for `-`), or `nil` when the table lacks it.
    public init?(_ identifier: String) {
        let wanted = String(identifier.map { $0 == "_" ? "-" : $0 }).lowercased()
        guard let found = Self.all.first(where: { $0.identifier.lowercased() == wanted }) else { return nil }
        self = found
    }

    private init(_ identifier: String, group: String, decimal: String, before: Bool, spacing: String) {
        self.identifier = identifier
        groupSeparator = group
        decimalSeparator = decimal
        currencyBefore = before
        currencySpacing = spacing
    }

    /// The number written with `currency` where this locale puts it: `prefix` and `suffix` around the digits.
    public func placing(currency: String) -> (prefix: String, suffix: String) {
        currencyBefore ? (currency + currencySpacing, "") : ("", currencySpacing + currency)
    }

    private static let noBreakSpace = "\u{00A0}"
    private static let narrowNoBreakSpace = "\u{202F}"

    /// Every locale in the table.
    public static let all: [NumberLocale] = [
        NumberLocale("en-US", group: ",", decimal: ".", before: true, spacing: ""),
        NumberLocale("en-GB", group: ",", decimal: ".", before: true, spacing: ""),
        NumberLocale("en-AU", group: ",", decimal: ".", before: true, spacing: ""),
        NumberLocale("en-CA", group: ",", decimal: ".", before: true, spacing: ""),
        NumberLocale("ja-JP", group: ",", decimal: ".", before: true, spacing: ""),
        NumberLocale("zh-CN", group: ",", decimal: ".", before: true, spacing: ""),
        NumberLocale("de-DE", group: ".", decimal: ",", before: false, spacing: noBreakSpace),
        NumberLocale("de-AT", group: noBreakSpace, decimal: ",", before: true, spacing: noBreakSpace),
        NumberLocale("de-CH", group: "’", decimal: ".", before: true, spacing: noBreakSpace),
        NumberLocale("fr-FR", group: narrowNoBreakSpace, decimal: ",", before: false, spacing: noBreakSpace),
        NumberLocale("fr-CA", group: noBreakSpace, decimal: ",", before: false, spacing: noBreakSpace),
        NumberLocale("es-ES", group: ".", decimal: ",", before: false, spacing: noBreakSpace),
        NumberLocale("it-IT", group: ".", decimal: ",", before: false, spacing: noBreakSpace),
        NumberLocale("nl-NL", group: ".", decimal: ",", before: true, spacing: noBreakSpace),
        NumberLocale("pt-BR", group: ".", decimal: ",", before: true, spacing: noBreakSpace),
        NumberLocale("pt-PT", group: noBreakSpace, decimal: ",", before: false, spacing: noBreakSpace),
        NumberLocale("sv-SE", group: noBreakSpace, decimal: ",", before: false, spacing: noBreakSpace),
        NumberLocale("nb-NO", group: noBreakSpace, decimal: ",", before: false, spacing: noBreakSpace),
        NumberLocale("da-DK", group: ".", decimal: ",", before: false, spacing: noBreakSpace),
        NumberLocale("fi-FI", group: noBreakSpace, decimal: ",", before: false, spacing: noBreakSpace),
        NumberLocale("pl-PL", group: noBreakSpace, decimal: ",", before: false, spacing: noBreakSpace),
        NumberLocale("cs-CZ", group: noBreakSpace, decimal: ",", before: false, spacing: noBreakSpace),
    ]
}
