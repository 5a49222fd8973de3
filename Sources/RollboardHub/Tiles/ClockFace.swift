public import Foundation
package import RollboardConfig
package import RollboardCore
package import RollboardStore

/// How a clock writes one instant: the time (hours, minutes and, when asked, seconds) and the date, in one time zone
/// and language. Hours have two digits where the language counts 24 of them (`09:05:00`), the language's own where
/// it counts 12 (`9:05:00 AM`).
public struct ClockFace: Sendable {
    private let time: Date.FormatStyle
    private let date: Date.FormatStyle?
    /// Seconds between two changes of what the face shows: 1 with seconds, 60 without.
    public let step: Double

    public init(timeZone: TimeZone, locale: String, seconds: Bool, date showsDate: Bool) {
        let locale = Locale(identifier: locale)
        let base = Date.FormatStyle(locale: locale, calendar: Calendar(identifier: .gregorian), timeZone: timeZone)
        // 13:00 UTC written by a language that counts 24 hours holds "13".
        var utc = base
        utc.timeZone = TimeZone(identifier: "UTC") ?? timeZone
        let twentyFour = utc.hour(.defaultDigits(amPM: .abbreviated)).format(Date(timeIntervalSince1970: 13 * 3600))
            .contains("13")
        var time = base.hour(twentyFour ? .twoDigits(amPM: .omitted) : .defaultDigits(amPM: .abbreviated))
            .minute(.twoDigits)
        if seconds { time = time.second(.twoDigits) }
        self.time = time
        date = showsDate ? Date.FormatStyle(date: .complete, time: .omitted, locale: locale,
            calendar: Calendar(identifier: .gregorian), timeZone: timeZone) : nil
        step = seconds ? 1 : 60
    }

    /// The STATE members of the whole second (or minute) `wall` falls in, `wall` in seconds since 1970: `time`, and
    /// `date` when the face shows it.
    public func members(wall: Double) -> [(name: String, text: String)] {
        let shown = Date(timeIntervalSince1970: (wall / step).rounded(.down) * step)
        var members = [(name: "time", text: time.format(shown))]
        if let date { members.append((name: "date", text: date.format(shown))) }
        return members
    }
}
