package import RollboardAccess
package import RollboardConfig
package import RollboardCore
package import RollboardHub
import RollboardNet
package import RollboardStore

/// The query of `GET /api/v1/metrics/{id}/series`: `from` and `to` (ISO 8601 UTC like `2026-11-26T09:00:00Z`, or
/// plain decimal seconds since 1970, both within years 1970 to 9999; default the last 24 hours up to now), `step`
/// (`raw`, the default, or `Nm`, `Nh`, `Nd`: rollups merged to that width), `limit` (points or buckets in one answer,
/// at most ``maximumLimit``) and `after` (raw only: the sequence number the previous page ended at). `key` is the
/// viewer key, read by the access check. Every value is checked before any conversion that could trap, and every
/// refusal is `400` naming its parameter.
struct SeriesRequest: Equatable {
    enum Step: Equatable {
        case raw
        /// Rollups of this many seconds (a whole number of minutes).
        case rollup(Int64)
    }

    var from: Double
    var to: Double
    var step: Step
    /// `step` as the request wrote it (echoed in the answer).
    var stepText: String
    /// The most points or buckets this answer holds.
    var limit = SeriesRequest.maximumLimit
    /// Raw points numbered up to this one were answered by earlier pages (0: none).
    var after: UInt64 = 0
    /// `from` and `to` as the next page's query writes them: the request's own text, or the default's exact
    /// milliseconds, so every page covers exactly the same span.
    var fromText = ""
    var toText = ""

    /// The most points or buckets one answer holds (and the default `limit`): about 65 KB of raw points, 130 KB of
    /// buckets. The rest is read page by page through `next`.
    static let maximumLimit = 1_000
    /// The span `from` and `to` cover when the request leaves them out.
    static let defaultSpan = 86_400.0
    /// The first second after 9999-12-31T23:59:59Z: times are refused from here on (and before 1970).
    static let endOfTime: Int64 = 253_402_300_800
    static let parameters = ["from", "to", "step", "limit", "after", "key"]

    static func parse(_ query: [String: String], now: Double) throws(APIError) -> SeriesRequest {
        for name in query.keys.sorted() where !parameters.contains(name) {
            throw .unknownField(name, allowed: parameters.filter { $0 != "key" })
        }
        let text = query["step"] ?? "raw"
        guard let step = step(text) else {
            throw .badRequest(
                "step: must be raw or a whole number of minutes, hours or days like 5m, 1h, 1d; got \(quoted(text))")
        }
        // The default `to` is now, rounded up to a whole millisecond so the next page's query can write it exactly;
        // the default `from` 24 hours before it, never before 1970.
        let to: Double
        let toText: String
        if let text = query["to"] {
            (to, toText) = (try instant(text, field: "to"), text)
        } else {
            let clampedNow = now.isFinite ? Swift.min(Swift.max(now, 0), Double(endOfTime - 1)) : 0
            let end = Int64((clampedNow * 1000).rounded(.up))
            (to, toText) = (Double(end) / 1000, milliseconds(end))
        }
        let from: Double
        let fromText: String
        if let text = query["from"] {
            (from, fromText) = (try instant(text, field: "from"), text)
        } else {
            let start = Swift.max(0, Int64((to * 1000).rounded(.up)) - Int64(defaultSpan * 1000))
            (from, fromText) = (Double(start) / 1000, milliseconds(start))
        }
        guard from < to else {
            throw .badRequest("from: must be before to (\(iso8601(from)) is not before \(iso8601(to)))")
        }
        var request = SeriesRequest(
            from: from, to: to, step: step, stepText: text, fromText: fromText, toText: toText)
        if let limit = query["limit"] {
            guard let count = wholeNumber(limit, digits: 4), (1...Int64(maximumLimit)).contains(count) else {
                throw .badRequest("limit: must be a whole number from 1 to \(maximumLimit), got \(quoted(limit))")
            }
            request.limit = Int(count)
        }
        if let after = query["after"] {
            guard step == .raw else {
                throw .badRequest("after: only with step=raw (the next page of rollups starts at its from)")
            }
            guard let seq = wholeNumber(after, digits: 19) else {
                throw .badRequest("after: must be a sequence number (a whole number of at most 19 digits), got "
                    + quoted(after))
            }
            request.after = UInt64(seq)
        }
        return request
    }

    /// The query of the page after this one: raw points numbered after `seq`, or rollups from `start` on.
    func next(after seq: UInt64) -> String {
        "from=\(fromText)&to=\(toText)&step=\(stepText)&limit=\(limit)&after=\(seq)"
    }

    func next(from start: Int64) -> String {
        "from=\(start)&to=\(toText)&step=\(stepText)&limit=\(limit)"
    }

    /// `raw`, or `N` followed by `m`, `h` or `d` with 1 ≤ N ≤ 100000 written in plain digits.
    static func step(_ text: String) -> Step? {
        if text == "raw" { return .raw }
        guard let unit = text.last, let count = wholeNumber(String(text.dropLast()), digits: 6),
            (1...100_000).contains(count)
        else { return nil }
        switch unit {
        case "m": return .rollup(count * 60)
        case "h": return .rollup(count * 3_600)
        case "d": return .rollup(count * 86_400)
        default: return nil
        }
    }

    /// Seconds since 1970 written in plain decimal (`1795683600`, `1795683600.25`) or as
    /// `YYYY-MM-DDTHH:MM:SS[.fff]Z`, a date that exists, within years 1970 to 9999. Nothing else is read: no sign,
    /// exponent, hex, `inf` or `nan`, no non-ASCII digits.
    static func instant(_ text: String, field: String) throws(APIError) -> Double {
        let shape = "must be a UTC time like 2026-11-26T09:00:00Z or seconds since 1970 in plain decimal"
        let range = "must be from 1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z (seconds 0 to \(endOfTime - 1))"
        // Checked before any pattern runs: every accepted form is short.
        guard text.utf8.count <= 40 else { throw .badRequest("\(field): \(shape), got \(quoted(text))") }
        if let match = text.wholeMatch(of: /([0-9]+)(\.[0-9]{1,9})?/) {
            // At most 12 digits after any leading zeros (the end of time has 12), so `Int64` cannot overflow.
            let digits = match.1.drop { $0 == "0" }
            guard digits.count <= 12, let whole = digits.isEmpty ? 0 : Int64(digits), whole < endOfTime else {
                throw .badRequest("\(field): \(range), got \(quoted(text))")
            }
            return Double(whole) + (match.2.flatMap { Double("0" + $0) } ?? 0)
        }
        let pattern = /([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})(\.[0-9]{1,9})?Z/
        guard let match = text.wholeMatch(of: pattern), let year = Int64(match.1), let month = Int64(match.2),
            let day = Int64(match.3), let hour = Int64(match.4), let minute = Int64(match.5),
            let second = Int64(match.6)
        else { throw .badRequest("\(field): \(shape), got \(quoted(text))") }
        guard (1970...9999).contains(year) else { throw .badRequest("\(field): \(range), got \(quoted(text))") }
        guard (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day), hour < 24, minute < 60,
            second < 60
        else {
            throw .badRequest("\(field): no such date or time: \(quoted(text))")
        }
        let seconds = daysSince1970(year: year, month: month, day: day) * 86_400 + hour * 3_600 + minute * 60 + second
        return Double(seconds) + (match.7.flatMap { Double("0" + $0) } ?? 0)
    }

    /// `text` read as plain ASCII digits, at most `digits` of them, else `nil` (also past `Int64.max`).
    static func wholeNumber(_ text: String, digits: Int) -> Int64? {
        guard (1...Swift.min(digits, 19)).contains(text.utf8.count),
            text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else { return nil }
        return Int64(text)
    }

    static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 1970-01-01 to the given proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    static func daysSince1970(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = y / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// `milliseconds` since 1970 as plain decimal seconds that read back as exactly `Double(milliseconds) / 1000`.
    static func milliseconds(_ milliseconds: Int64) -> String {
        let fraction = milliseconds % 1000
        guard fraction != 0 else { return "\(milliseconds / 1000)" }
        let digits = String(fraction)
        return "\(milliseconds / 1000)." + String(repeating: "0", count: 3 - digits.count) + digits
    }

    /// `text` quoted for a message, cut to 60 characters so a long hostile value is not echoed whole.
    static func quoted(_ text: String) -> String {
        let shown = text.count > 60 ? String(text.prefix(60)) + "…" : text
        return JSONText.quoted(shown)
    }
}
