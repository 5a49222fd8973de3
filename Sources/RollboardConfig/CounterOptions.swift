public import RollboardAnimation
package import RollboardCore

/// Options of a `counter` tile: formatted text counting from the old value to the new one.
public struct CounterOptions: Sendable, Equatable {
    /// A printf-style format: `%d` or `%.Nf` with N from 0 to 6.
    public var format: String
    /// A grouping pattern such as `###,##0.00`, or `nil` for no grouping.
    public var grouping: String?
    public var easing: Easing
    /// Seconds a change takes (at least 0.3).
    public var duration: Double
    public var prefix: String
    public var suffix: String
    /// Separators and currency; with a locale or a group separator and no `grouping` pattern, digits group by three.
    public var style = NumberStyle()
    /// Compact notation (`950`, `12.3K`, `4.5M`) with the format's decimal places; the unit changes as the count passes
    /// each power of 1,000.
    public var compact = false
    /// A sparkline under the number (`trend: 24h`).
    public var trend: TrendOptions?

    public init(
        format: String = "%d",
        grouping: String? = nil,
        easing: Easing = .easeInOut,
        duration: Double = CounterConfiguration.defaultDuration,
        prefix: String = "",
        suffix: String = ""
    ) {
        self.format = format
        self.grouping = grouping
        self.easing = easing
        self.duration = duration
        self.prefix = prefix
        self.suffix = suffix
    }

    /// The decimal places of `format`: 0 for `%d`, N for `%.Nf`; `nil` if the format is not one of those.
    public static func decimals(ofFormat format: String) -> Int? {
        if format == "%d" { return 0 }
        guard format.hasPrefix("%."), format.hasSuffix("f"), format.count == 4,
            let digit = Int(String(format.dropFirst(2).dropLast())), (0...6).contains(digit)
        else { return nil }
        return digit
    }

    /// The decimal places of a grouping pattern (`#,##0.00` has 2), or `nil` if it is not a valid pattern:
    /// only `#`, `0`, `,` and at most one `.`, at least one digit placeholder before the point, no `,` after it.
    public static func decimals(ofGrouping pattern: String, decimalSeparator: String = ".") -> Int? {
        var pattern = pattern
        if decimalSeparator == ",", let comma = pattern.lastIndex(of: ","), let point = pattern.lastIndex(of: "."),
            comma > point
        {
            pattern = String(pattern.map { $0 == "," ? "." : $0 == "." ? "," : $0 })
        }
        let parts = pattern.split(separator: ".", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count <= 2, let integer = parts.first,
            integer.allSatisfy({ "#0,".contains($0) }), integer.contains(where: { $0 == "#" || $0 == "0" }),
            !integer.hasPrefix(","), !integer.hasSuffix(","), !integer.contains(",,")
        else { return nil }
        guard parts.count == 2 else { return 0 }
        guard parts[1].allSatisfy({ $0 == "#" || $0 == "0" }) else { return nil }
        return parts[1].count
    }
}
