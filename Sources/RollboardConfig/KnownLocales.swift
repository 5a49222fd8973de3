import Foundation
import RollboardNet

/// The languages a clock writes its time and date in, and a dashboard names for its clocks and its page: a BCP 47
/// tag (`de-DE`, `fr`, `zh-Hans-CN`, any case) of a locale the server has data for (ICU's, about a thousand). A tag
/// it has no data for is refused rather than shown as en-US, as a number tile refuses a locale outside its table
/// (``RollboardAnimation/NumberLocale``).
public enum KnownLocales {
    /// Every locale identifier the server has data for, lowercased, with `_` between subtags.
    private static let identifiers = Set(Locale.availableIdentifiers.map { $0.lowercased() })

    /// Why `tag` cannot be a clock's or a dashboard's `locale`, in words that follow the field's name; `nil` if it can.
    public static func problem(with tag: String) -> String? {
        let known = DashboardConfiguration.isLanguageTag(tag)
            && identifiers.contains(tag.replacingOccurrences(of: "-", with: "_").lowercased())
        return known ? nil : "\(JSONText.quoted(tag)) is not a locale the server knows: give a language tag such as de-DE, fr or ja-JP"
    }
}
