#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `seconds` since 1970 as an ISO 8601 UTC timestamp with milliseconds: `2026-05-01T12:34:56.789Z`.
package func iso8601(_ seconds: Double) -> String {
    var milliseconds = Int64((seconds * 1000).rounded(.down))
    var whole = time_t(milliseconds / 1000)
    milliseconds %= 1000
    if milliseconds < 0 {
        milliseconds += 1000
        whole -= 1
    }
    var parts = tm()
    gmtime_r(&whole, &parts)
    func pad(_ value: some BinaryInteger, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: Swift.max(0, width - text.count)) + text
    }
    return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))"
        + "T\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2)).\(pad(milliseconds, 3))Z"
}
