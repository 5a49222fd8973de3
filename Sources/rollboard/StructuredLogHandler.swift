import Foundation
import Logging

/// Log lines an operator's tools can parse: `logfmt` (`ts=… level=info msg="…" key=value`) or one JSON object per
/// line, on standard error, with the logger's metadata as fields.
struct StructuredLogHandler: LogHandler {
    enum Format: String, CaseIterable {
        case logfmt, json
    }

    let label: String
    let format: Format
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var fields: [(String, String)] = [
            ("ts", Self.timestamp()), ("level", event.level.rawValue), ("logger", label), ("msg", "\(event.message)"),
        ]
        let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
        for (key, value) in merged.sorted(by: { $0.key < $1.key }) { fields.append((key, "\(value)")) }
        let line: String
        switch format {
        case .logfmt:
            line = fields.map { key, value in "\(key)=\(Self.logfmtValue(value))" }.joined(separator: " ")
        case .json:
            line = "{" + fields.map { key, value in "\(Self.jsonString(key)):\(Self.jsonString(value))" }
                .joined(separator: ",") + "}"
        }
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// A value bare when it can be, else quoted with `"` and `\` escaped and control characters as `\n`, `\t`, `\u…`.
    static func logfmtValue(_ value: String) -> String {
        let bare = !value.isEmpty && value.unicodeScalars.allSatisfy { scalar in
            scalar.value > 0x20 && scalar.value < 0x7F && scalar != "\"" && scalar != "=" && scalar != "\\"
        }
        return bare ? value : jsonString(value)
    }

    static func jsonString(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    private static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var seconds = now.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday,
            parts.tm_hour, parts.tm_min, parts.tm_sec, now.tv_nsec / 1_000_000)
    }
}
