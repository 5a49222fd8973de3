#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A point in time at one-second resolution, formatted as an HTTP `IMF-fixdate`
/// (`Sun, 06 Nov 1994 08:49:37 GMT`, RFC 9110 section 5.6.7) without locale or calendar APIs.
public struct HTTPDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Whole seconds since 1970-01-01T00:00:00Z.
    public let secondsSince1970: Int64

    /// The date `secondsSince1970` seconds after the Unix epoch.
    public init(secondsSince1970: Int64) {
        self.secondsSince1970 = secondsSince1970
    }

    /// The current wall-clock time.
    public static func now() -> HTTPDate {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return HTTPDate(secondsSince1970: Int64(spec.tv_sec))
    }

    /// The `IMF-fixdate` text.
    public var description: String { String(decoding: bytes, as: UTF8.self) }

    /// The `IMF-fixdate` as its 29 ASCII bytes.
    var bytes: [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(29)
        append(to: &output)
        return output
    }

    /// Appends the 29 bytes of the `IMF-fixdate`; dates outside years 1970…9999 are clamped to them.
    func append(to output: inout [UInt8]) {
        let seconds = min(max(secondsSince1970, 0), Self.lastSecondOfYear9999)
        let days = seconds / 86_400
        let secondOfDay = seconds % 86_400
        let (year, month, day) = Self.civilDate(daysSince1970: days)
        let weekday = Int((days + 4) % 7)  // 1970-01-01 was a Thursday (index 4, Sunday = 0)
        output.append(contentsOf: Self.weekdayNames[weekday])
        output.append(contentsOf: ", ".utf8)
        appendTwoDigits(day, to: &output)
        output.append(ASCII.space)
        output.append(contentsOf: Self.monthNames[month - 1])
        output.append(ASCII.space)
        appendTwoDigits(Int(year / 100 % 100), to: &output)
        appendTwoDigits(Int(year % 100), to: &output)
        output.append(ASCII.space)
        appendTwoDigits(Int(secondOfDay / 3600), to: &output)
        output.append(UInt8(ascii: ":"))
        appendTwoDigits(Int(secondOfDay / 60 % 60), to: &output)
        output.append(UInt8(ascii: ":"))
        appendTwoDigits(Int(secondOfDay % 60), to: &output)
        output.append(contentsOf: " GMT".utf8)
    }

    public static func < (lhs: HTTPDate, rhs: HTTPDate) -> Bool {
        lhs.secondsSince1970 < rhs.secondsSince1970
    }

    private static let lastSecondOfYear9999: Int64 = 253_402_300_799
    private static let weekdayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"].map { Array($0.utf8) }
    private static let monthNames = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]
    .map { Array($0.utf8) }

    /// Year, month (1…12) and day (1…31) of the proleptic Gregorian calendar (H. Hinnant's `civil_from_days`).
    private static func civilDate(daysSince1970: Int64) -> (year: Int64, month: Int, day: Int) {
        let z = daysSince1970 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = Int(dayOfYear - (153 * shiftedMonth + 2) / 5 + 1)
        let month = Int(shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9)
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }
}

private func appendTwoDigits(_ value: Int, to output: inout [UInt8]) {
    output.append(UInt8(ascii: "0") + UInt8(value / 10))
    output.append(UInt8(ascii: "0") + UInt8(value % 10))
}
