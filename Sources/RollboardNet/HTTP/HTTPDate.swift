import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A point in time at one-second resolution, formatted as an HTTP `IMF-fixdate`
/// (`Sun, 06 Nov 1994 08:49:37 GMT`, RFC 9110 section 5.6.7) without locale or calendar APIs.
///
/// The text is formatted once, when the value is made; ``now()`` hands out one shared value per second.
public struct HTTPDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Whole seconds since 1970-01-01T00:00:00Z.
    public let secondsSince1970: Int64
    /// The `IMF-fixdate` as its 29 ASCII bytes.
    let bytes: [UInt8]

    /// The date `secondsSince1970` seconds after the Unix epoch; its text is clamped to years 1970…9999.
    public init(secondsSince1970: Int64) {
        self.secondsSince1970 = secondsSince1970
        self.bytes = Self.format(min(max(secondsSince1970, 0), Self.lastSecondOfYear9999))
    }

    /// The current wall-clock time, formatted at most once per second.
    public static func now() -> HTTPDate {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        let seconds = Int64(spec.tv_sec)
        if let cached = latest.withLock({ $0 }), cached.secondsSince1970 == seconds { return cached }
        let date = HTTPDate(secondsSince1970: seconds)
        latest.withLock { $0 = date }
        return date
    }

    /// The most recent ``now()``, shared by every connection.
    private static let latest = Mutex<HTTPDate?>(nil)

    /// The `IMF-fixdate` text.
    public var description: String { String(decoding: bytes, as: UTF8.self) }

    /// Appends the 29 bytes of the `IMF-fixdate`.
    func append(to output: inout [UInt8]) {
        output.append(contentsOf: bytes)
    }

    public static func < (lhs: HTTPDate, rhs: HTTPDate) -> Bool {
        lhs.secondsSince1970 < rhs.secondsSince1970
    }

    private static func format(_ seconds: Int64) -> [UInt8] {
        let days = seconds / 86_400
        let secondOfDay = Int(seconds % 86_400)
        let (year, month, day) = civilDate(daysSince1970: days)
        let weekday = Int((days + 4) % 7)  // 1970-01-01 was a Thursday (index 4, Sunday = 0)
        return [UInt8](unsafeUninitializedCapacity: 29) { output, count in
            func put(_ text: StaticString, from offset: Int, at position: Int) {
                for index in 0..<3 { output[position + index] = text.utf8Start[offset * 3 + index] }
            }
            func put(twoDigits value: Int, at position: Int) {
                output[position] = UInt8(ascii: "0") + UInt8(value / 10)
                output[position + 1] = UInt8(ascii: "0") + UInt8(value % 10)
            }
            func put(_ byte: UInt8, at position: Int) { output[position] = byte }
            put("SunMonTueWedThuFriSat", from: weekday, at: 0)
            put(UInt8(ascii: ","), at: 3)
            put(ASCII.space, at: 4)
            put(twoDigits: day, at: 5)
            put(ASCII.space, at: 7)
            put("JanFebMarAprMayJunJulAugSepOctNovDec", from: month - 1, at: 8)
            put(ASCII.space, at: 11)
            put(twoDigits: Int(year / 100), at: 12)
            put(twoDigits: Int(year % 100), at: 14)
            put(ASCII.space, at: 16)
            put(twoDigits: secondOfDay / 3600, at: 17)
            put(UInt8(ascii: ":"), at: 19)
            put(twoDigits: secondOfDay / 60 % 60, at: 20)
            put(UInt8(ascii: ":"), at: 22)
            put(twoDigits: secondOfDay % 60, at: 23)
            put("GMT", from: 0, at: 26)
            put(ASCII.space, at: 25)
            count = 29
        }
    }

    private static let lastSecondOfYear9999: Int64 = 253_402_300_799

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
