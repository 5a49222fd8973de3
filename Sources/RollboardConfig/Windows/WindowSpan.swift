
/// The stretch of time a tile's `window` names: a calendar period in the dashboard's time zone (`today`,
/// `yesterday`, `thisWeek` from Monday, `thisMonth`), or the last so many minutes, hours or days (`"last 15m"`,
/// `"last 24h"`, `"last 7d"`).
package enum WindowSpan: Equatable, Sendable {
    case today, yesterday, thisWeek, thisMonth
    /// The last this many seconds up to now.
    case last(Double)

    /// The span `text` names, or `nil`.
    init?(_ text: String) {
        switch text {
        case "today": self = .today
        case "yesterday": self = .yesterday
        case "thisWeek": self = .thisWeek
        case "thisMonth": self = .thisMonth
        default:
            guard text.hasPrefix("last "), let unit = text.last, let count = Int(text.dropFirst(5).dropLast()),
                (1...10_000).contains(count), text.dropFirst(5).first?.isNumber == true
            else { return nil }
            switch unit {
            case "m": self = .last(Double(count) * 60)
            case "h": self = .last(Double(count) * 3_600)
            case "d": self = .last(Double(count) * 86_400)
            default: return nil
            }
        }
    }

    /// What a refusal says the span may be.
    static let accepted = #"today, yesterday, thisWeek, thisMonth, or "last N" with m, h or d (like "last 15m")"#
}
