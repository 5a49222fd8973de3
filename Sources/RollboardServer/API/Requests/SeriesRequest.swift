#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The query of `GET /api/v1/metrics/{id}/series`: `from` and `to` (ISO 8601 UTC like `2026-11-26T09:00:00Z`, or
/// seconds since 1970; default the last 24 hours up to now) and `step` (`raw`, the default, or `Nm`, `Nh`, `Nd`:
/// rollups merged to that width). Every refusal names its parameter.
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

    /// The most points or buckets one answer holds.
    static let maximumPoints = 10_000
    /// The span `from` and `to` cover when the request leaves them out.
    static let defaultSpan = 86_400.0

    static func parse(_ query: [String: String], now: Double) throws(APIError) -> SeriesRequest {
        for name in query.keys.sorted() where !["from", "to", "step"].contains(name) {
            throw .unknownField(name, allowed: ["from", "to", "step"])
        }
        let to = try query["to"].map { text throws(APIError) in try instant(text, field: "to") } ?? now
        let from =
            try query["from"].map { text throws(APIError) in try instant(text, field: "from") }
            ?? to - defaultSpan
        guard from < to else {
            throw .invalidValue("from: must be before to (\(iso8601(from)) is not before \(iso8601(to)))")
        }
        let text = query["step"] ?? "raw"
        guard let step = step(text) else {
            throw .invalidValue(
                "step: must be raw or a whole number of minutes, hours or days like 5m, 1h, 1d; got \"\(text)\"")
        }
        if case .rollup(let seconds) = step, (to - from) / Double(seconds) > Double(maximumPoints) {
            throw .invalidValue(
                "step: \(text) over this span gives more than \(maximumPoints) buckets; choose a longer step or a "
                    + "shorter span")
        }
        return SeriesRequest(from: from, to: to, step: step, stepText: text)
    }

    /// `raw`, or `N` followed by `m`, `h` or `d` with 1 ≤ N ≤ 100000.
    static func step(_ text: String) -> Step? {
        if text == "raw" { return .raw }
        guard let unit = text.last, let count = Int64(text.dropLast()), (1...100_000).contains(count),
            text.first?.isNumber == true
        else { return nil }
        switch unit {
        case "m": return .rollup(count * 60)
        case "h": return .rollup(count * 3_600)
        case "d": return .rollup(count * 86_400)
        default: return nil
        }
    }

    /// Seconds since 1970 written as a number or as `YYYY-MM-DDTHH:MM:SS[.fff]Z`.
    static func instant(_ text: String, field: String) throws(APIError) -> Double {
        if let seconds = Double(text), seconds.isFinite, text.first?.isNumber == true || text.first == "-" {
            return seconds
        }
        let pattern = /(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?Z/
        guard let match = text.wholeMatch(of: pattern), let year = Int32(match.1), let month = Int32(match.2),
            let day = Int32(match.3), let hour = Int32(match.4), let minute = Int32(match.5),
            let second = Int32(match.6), (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60,
            second < 61
        else {
            throw .invalidValue(
                "\(field): must be a UTC time like 2026-11-26T09:00:00Z or seconds since 1970, got \"\(text)\"")
        }
        var parts = tm()
        parts.tm_year = year - 1900
        parts.tm_mon = month - 1
        parts.tm_mday = day
        parts.tm_hour = hour
        parts.tm_min = minute
        parts.tm_sec = second
        let whole = timegm(&parts)
        let fraction = match.7.flatMap { Double("0" + $0) } ?? 0
        return Double(whole) + fraction
    }
}
