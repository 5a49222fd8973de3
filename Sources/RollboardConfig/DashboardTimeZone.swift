public import Foundation
package import RollboardCore

/// A dashboard's `timeZone`: an IANA time zone name (`Europe/Berlin`, `America/New_York`, `UTC`) in which its clocks
/// tell the time (and its days begin). Absent, the server's own time zone.
public struct DashboardTimeZone: Sendable, Equatable {
    /// The name as written, e.g. `Europe/Berlin`.
    public let identifier: String
    /// The time zone it names.
    public let timeZone: TimeZone

    /// The time zone named `identifier`, or `nil` when it is not an IANA name the system's time zone database knows.
    /// Fixed offsets Foundation would also accept (`GMT+1`, `UTC-05:00`) are not names and are refused.
    public init?(identifier: String) {
        let offset = ["GMT+", "GMT-", "UTC+", "UTC-"].contains { identifier.hasPrefix($0) }
        let allowed = identifier.unicodeScalars.allSatisfy {
            ("A"..."Z").contains($0) || ("a"..."z").contains($0) || ("0"..."9").contains($0) || "/_+-".unicodeScalars.contains($0)
        }
        guard !identifier.isEmpty, allowed, !offset, let timeZone = TimeZone(identifier: identifier) else { return nil }
        self.identifier = identifier
        self.timeZone = timeZone
    }

    /// The server's own time zone (what a dashboard without `timeZone` uses).
    public static var server: TimeZone { TimeZone.current }

    /// Reads `key` (`timeZone`) from `reader`; `nil` when absent or not a time zone name (reported, naming the key).
    static func read(_ key: String, from reader: YAMLMappingReader) -> DashboardTimeZone? {
        guard let name = reader.string(key) else { return nil }
        guard let zone = DashboardTimeZone(identifier: name) else {
            reader.report(key, "must be an IANA time zone name such as Europe/Berlin or UTC, got \"\(name)\"")
            return nil
        }
        return zone
    }
}
