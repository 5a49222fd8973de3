package import RollboardCore

/// What a string a producer or a configuration gives a screen to draw may be. A name (a leaderboard entry, a wheel's
/// label, a title) is one line; a text (a text tile's message, a carousel slide's text or image description) may
/// break lines. Each is bounded in characters (grapheme clusters, what a reader counts) and in UTF-8 bytes (what the
/// server stores, sends and lays out: one "character" can be `a` and 20,000 combining marks), holds no control
/// character (a text may hold newlines), and must draw something: not only white space, zero-width characters and
/// combining marks, the same rule a screen's name follows (``Swift/String/showsSomething``).
public enum DisplayText: Sendable {
    /// One line: a leaderboard entry's name, a wheel's label, a tile's or a dashboard's title.
    case name
    /// Lines of text: a text tile's message, a slide's text, an image slide's `alt`.
    case text

    /// The most characters (grapheme clusters).
    public var maximumCharacters: Int {
        switch self {
        case .name: Defaults.nameCharacters
        case .text: Defaults.textCharacters
        }
    }

    /// The most UTF-8 bytes.
    public var maximumBytes: Int {
        switch self {
        case .name: Defaults.nameBytes
        case .text: Defaults.textBytes
        }
    }

    /// Why `string` cannot be shown as this kind, in words that follow a field's name (`name is 40003 bytes; at
    /// most 400`), or `nil` when it can. `allowsEmpty`: an empty string is fine (a text tile's message clears it).
    public func problem(with string: String, allowsEmpty: Bool = false) -> String? {
        let noun = self == .name ? "name" : "text"
        if string.isEmpty { return allowsEmpty ? nil : "\(noun) is empty" }
        let bytes = string.utf8.count
        if bytes > maximumBytes { return "\(noun) is \(bytes) bytes; at most \(maximumBytes)" }
        let characters = string.count
        if characters > maximumCharacters {
            return "\(noun) is \(characters) characters; at most \(maximumCharacters)"
        }
        if let control = string.unicodeScalars.first(where: { $0.isControl && !(self == .text && $0 == "\n") }) {
            let hex = String(control.value, radix: 16, uppercase: true)
            let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            let allowed = self == .text ? " (a text may hold newlines, U+000A)" : ""
            return "\(noun) holds the control character \(code); none is allowed\(allowed)"
        }
        if !string.showsSomething {
            return "\(noun) shows nothing (only white space, zero-width characters or combining marks)"
        }
        return nil
    }

    /// At most 12 code points of `string`, for naming it in an error (a character can be thousands of them).
    public static func excerpt(_ string: String) -> String {
        let scalars = string.unicodeScalars
        guard scalars.count > 12 else { return string }
        return String(String.UnicodeScalarView(scalars.prefix(12))) + "…"
    }
}
