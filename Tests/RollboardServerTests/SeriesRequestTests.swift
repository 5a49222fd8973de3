import Testing

@testable import RollboardCore
@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardAccess
@testable import RollboardHub
@testable import RollboardAPI

/// The series query: `from` and `to` bounded to years 1970 to 9999 and read only as plain decimal seconds or a date
/// that exists, before any conversion that could trap; `step`, `limit` and `after` in plain digits; every refusal a
/// 400 naming its parameter.
@Suite("Series query")
struct SeriesRequestTests {
    /// 2026-11-26T09:00:00Z.
    static let nine = 1_795_683_600.0

    static let shape = "must be a UTC time like 2026-11-26T09:00:00Z or seconds since 1970 in plain decimal"
    static let range = "must be from 1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z (seconds 0 to 253402300799)"
    static let stepRule = "must be raw or a whole number of minutes, hours or days like 5m, 1h, 1d"

    static let refused: [([String: String], String)] = [
        // Each of these aborted the process in the date conversion, or was echoed as year 291538364.
        (["from": "-1e300"], #"from: \#(shape), got "-1e300""#),
        (["to": "1e300"], #"to: \#(shape), got "1e300""#),
        (["from": "-9.3e15", "to": "0"], #"from: \#(shape), got "-9.3e15""#),
        (["to": "9200000000000000"], #"to: \#(range), got "9200000000000000""#),
        (["to": "253402300800"], #"to: \#(range), got "253402300800""#),
        (["to": "999999999999999999999"], #"to: \#(range), got "999999999999999999999""#),
        (["from": "-1"], #"from: \#(shape), got "-1""#),
        (["from": "0x10"], #"from: \#(shape), got "0x10""#),
        (["from": "inf"], #"from: \#(shape), got "inf""#),
        (["from": "nan"], #"from: \#(shape), got "nan""#),
        (["from": "1e3"], #"from: \#(shape), got "1e3""#),
        (["from": "+5"], #"from: \#(shape), got "+5""#),
        (["from": " 5"], #"from: \#(shape), got " 5""#),
        (["from": "١٢٣"], #"from: \#(shape), got "١٢٣""#),
        (["from": ""], #"from: \#(shape), got """#),
        (
            ["from": String(repeating: "9", count: 5_000)],
            #"from: \#(shape), got "\#(String(repeating: "9", count: 60))…""#
        ),
        (["from": "yesterday"], #"from: \#(shape), got "yesterday""#),
        (["to": "2026-13-01T00:00:00Z"], #"to: no such date or time: "2026-13-01T00:00:00Z""#),
        (["to": "2026-02-30T00:00:00Z"], #"to: no such date or time: "2026-02-30T00:00:00Z""#),
        (["to": "2025-02-29T00:00:00Z"], #"to: no such date or time: "2025-02-29T00:00:00Z""#),
        (["to": "2100-02-29T00:00:00Z"], #"to: no such date or time: "2100-02-29T00:00:00Z""#),
        (["to": "2026-04-31T00:00:00Z"], #"to: no such date or time: "2026-04-31T00:00:00Z""#),
        (["to": "2026-11-26T24:00:00Z"], #"to: no such date or time: "2026-11-26T24:00:00Z""#),
        (["to": "2026-11-26T09:60:00Z"], #"to: no such date or time: "2026-11-26T09:60:00Z""#),
        (["to": "2026-11-26T09:00:60Z"], #"to: no such date or time: "2026-11-26T09:00:60Z""#),
        (["from": "1969-12-31T23:59:59Z"], #"from: \#(range), got "1969-12-31T23:59:59Z""#),
        (["from": "0000-01-01T00:00:00Z"], #"from: \#(range), got "0000-01-01T00:00:00Z""#),
        (["to": "+10000-01-01T00:00:00Z"], #"to: \#(shape), got "+10000-01-01T00:00:00Z""#),
        (["to": "2026-11-26"], #"to: \#(shape), got "2026-11-26""#),
        (
            ["from": "2026-11-26T10:00:00Z", "to": "2026-11-26T09:00:00Z"],
            "from: must be before to (2026-11-26T10:00:00.000Z is not before 2026-11-26T09:00:00.000Z)"
        ),
        (["step": "5s"], #"step: \#(stepRule); got "5s""#),
        (["step": "-1h"], #"step: \#(stepRule); got "-1h""#),
        (["step": "+1h"], #"step: \#(stepRule); got "+1h""#),
        (["step": "0m"], #"step: \#(stepRule); got "0m""#),
        (["step": "100001d"], #"step: \#(stepRule); got "100001d""#),
        (["step": "99999999999999999999999h"], #"step: \#(stepRule); got "99999999999999999999999h""#),
        (["step": "m"], #"step: \#(stepRule); got "m""#),
        (["step": "٥m"], #"step: \#(stepRule); got "٥m""#),
        (["limit": "0"], #"limit: must be a whole number from 1 to 1000, got "0""#),
        (["limit": "1001"], #"limit: must be a whole number from 1 to 1000, got "1001""#),
        (["limit": "-1"], #"limit: must be a whole number from 1 to 1000, got "-1""#),
        (
            ["limit": "99999999999999999999"],
            #"limit: must be a whole number from 1 to 1000, got "99999999999999999999""#
        ),
        (["after": "-1"], #"after: must be a sequence number (a whole number of at most 19 digits), got "-1""#),
        (
            ["after": "9999999999999999999"],
            #"after: must be a sequence number (a whole number of at most 19 digits), got "9999999999999999999""#
        ),
        (["after": "0x10"], #"after: must be a sequence number (a whole number of at most 19 digits), got "0x10""#),
        (["after": "5", "step": "1h"], "after: only with step=raw (the next page of rollups starts at its from)"),
    ]

    @Test("a hostile or impossible value is refused with a 400 naming its parameter, before anything can trap",
        arguments: refused)
    func refusesNamingTheParameter(query: [String: String], detail: String) {
        #expect(throws: APIError.badRequest(detail)) { try SeriesRequest.parse(query, now: Self.nine) }
    }

    static let accepted: [(String, Double)] = [
        ("0", 0),
        ("1795683600", nine),
        ("1795683600.25", nine + 0.25),
        ("001795683600", nine),
        ("00000000000000000001795683600.000000001", nine),
        ("253402300799.999", 253_402_300_799.999),
        ("1970-01-01T00:00:00Z", 0),
        ("2026-11-26T09:00:00Z", nine),
        ("2026-11-26T09:00:00.5Z", nine + 0.5),
        ("2024-02-29T00:00:00Z", 1_709_164_800),
        ("2000-02-29T00:00:00Z", 951_782_400),
        ("9999-12-31T23:59:59Z", 253_402_300_799),
    ]

    @Test("plain decimal seconds and dates that exist are read exactly", arguments: accepted)
    func readsTimes(text: String, seconds: Double) throws {
        #expect(try SeriesRequest.instant(text, field: "from") == seconds)
    }

    @Test("an unknown parameter is refused; the defaults are the last 24 hours, raw, pages of 1000")
    func defaults() throws {
        #expect(throws: APIError.unknownField("form", allowed: ["from", "to", "step", "limit", "after"])) {
            try SeriesRequest.parse(["form": "1"], now: Self.nine)
        }
        let parsed = try SeriesRequest.parse(["key": "rbv_x"], now: Self.nine)
        #expect(
            parsed
                == SeriesRequest(
                    from: Self.nine - 86_400, to: Self.nine, step: .raw, stepText: "raw", fromText: "1795597200",
                    toText: "1795683600"))
        #expect(parsed.limit == 1_000 && parsed.after == 0)
        let explicit = try SeriesRequest.parse(
            ["from": "2026-11-26T09:00:00.5Z", "to": "1795690800", "step": "2h", "limit": "10"], now: 0)
        #expect(explicit.from == Self.nine + 0.5 && explicit.to == Self.nine + 7_200)
        #expect(explicit.step == .rollup(7_200) && explicit.limit == 10)
        #expect(explicit.next(from: 1_795_690_000) == "from=1795690000&to=1795690800&step=2h&limit=10")
        let beyond = try SeriesRequest.parse(["from": "0", "step": "1m"], now: Self.nine)
        #expect(beyond.step == .rollup(60), "a long span of short steps is read page by page, not refused")
    }

    @Test("the default end is now rounded up to a millisecond, written so the next page reads it back exactly")
    func defaultEndReadsBack() throws {
        let parsed = try SeriesRequest.parse(["after": "41"], now: Self.nine + 0.123_456)
        #expect(parsed.toText == "1795683600.124")
        #expect(parsed.to == (try SeriesRequest.instant(parsed.toText, field: "to")))
        #expect(parsed.from == (try SeriesRequest.instant(parsed.fromText, field: "from")))
        #expect(parsed.next(after: 99) == "from=1795597200.124&to=1795683600.124&step=raw&limit=1000&after=99")
        let early = try SeriesRequest.parse([:], now: 3_600)
        #expect(early.from == 0, "the default start is never before 1970")
    }
}
