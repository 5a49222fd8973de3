public import Logging
import RollboardNet

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Log lines an operator's tools can parse: `logfmt` (`ts=… level=info logger=… msg="…" key=value`) or one JSON
/// object per line, with the logger's metadata as fields sorted by name. Written to standard error unless told
/// otherwise.
public struct StructuredLogHandler: LogHandler {
    public enum Format: String, Sendable, CaseIterable {
        case logfmt, json
    }

    public let label: String
    public let format: Format
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    private let output: @Sendable (String) -> Void
    private let now: @Sendable () -> Double

    /// - Parameters:
    ///   - write: takes each line, newline included (default: standard error).
    ///   - now: seconds since 1970 (default: the system clock).
    public init(
        label: String, format: Format, write: (@Sendable (String) -> Void)? = nil, now: (@Sendable () -> Double)? = nil
    ) {
        self.label = label
        self.format = format
        self.output = write ?? { line in
            let bytes = Array(line.utf8)
            bytes.withUnsafeBytes { writeAll(2, $0) }
        }
        self.now = now ?? NodeClock.system.wall.now
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var fields: [(String, String)] = [
            ("ts", Self.timestamp(now())), ("level", event.level.rawValue), ("logger", label),
            ("msg", "\(event.message)"),
        ]
        let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
        for (key, value) in merged.sorted(by: { $0.key < $1.key }) { fields.append((key, "\(value)")) }
        let line: String
        switch format {
        case .logfmt:
            line = fields.map { key, value in "\(key)=\(Self.logfmtValue(value))" }.joined(separator: " ")
        case .json:
            line = "{" + fields.map { key, value in "\(JSONText.quoted(key)):\(JSONText.quoted(value))" }
                .joined(separator: ",") + "}"
        }
        output(line + "\n")
    }

    /// `value` bare when it is printable ASCII without spaces, quotes, `=` or `\`; else quoted and escaped as JSON.
    static func logfmtValue(_ value: String) -> String {
        let bare =
            !value.isEmpty
            && value.utf8.allSatisfy { byte in
                byte > 0x20 && byte < 0x7F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "=")
                    && byte != UInt8(ascii: "\\")
            }
        return bare ? value : JSONText.quoted(value)
    }

    /// `2026-11-24T05:44:54.123Z`.
    static func timestamp(_ seconds: Double) -> String {
        var whole = time_t(seconds.rounded(.down))
        let milliseconds = Int((seconds - seconds.rounded(.down)) * 1000)
        var parts = tm()
        gmtime_r(&whole, &parts)
        func padded(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return padded(Int(parts.tm_year) + 1900, 4) + "-" + padded(Int(parts.tm_mon) + 1, 2) + "-"
            + padded(Int(parts.tm_mday), 2) + "T" + padded(Int(parts.tm_hour), 2) + ":" + padded(Int(parts.tm_min), 2)
            + ":" + padded(Int(parts.tm_sec), 2) + "." + padded(milliseconds, 3) + "Z"
    }
}

/// Writes all of `bytes` to descriptor `fd`, going on after short writes and interrupted calls.
private func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) {
    var offset = 0
    while offset < bytes.count {
        let written = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
        if written < 0 && errno == EINTR { continue }
        guard written > 0 else { return }
        offset += written
    }
}
