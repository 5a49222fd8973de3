
extension String {
    /// The string without white space at either end.
    package func trimmingWhitespaceAndNewlines() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })!
        return String(scalars[first...last])
    }

    /// The string without control or invisible characters and surrounding blanks, at most `limit` characters; `nil`
    /// if nothing visible is left (a screen's name, a script error it reports).
    package func visibleText(limit: Int) -> String? {
        let visible = unicodeScalars.filter { !$0.isControl && !$0.properties.isDefaultIgnorableCodePoint }
        let kept = String(String.UnicodeScalarView(visible)).trimmingWhitespaceAndNewlines()
        return kept.showsSomething ? String(kept.prefix(limit)) : nil
    }

    /// Whether the string has a character a screen draws: not only white space, zero-width and other
    /// default-ignorable code points, and combining marks with nothing to sit on.
    package var showsSomething: Bool { unicodeScalars.contains { !$0.isInvisible } }
}

extension Unicode.Scalar {
    /// A control character: C0 (NUL, BEL, ESC, newline …), DEL and C1.
    package var isControl: Bool { properties.generalCategory == .control }

    /// Drawn as nothing on its own: white space, a default-ignorable code point (zero-width space and joiners, bidi
    /// marks, variation selectors …), a control character or a combining mark.
    package var isInvisible: Bool {
        switch properties.generalCategory {
        case .control, .format, .nonspacingMark, .enclosingMark, .spacingMark, .spaceSeparator, .lineSeparator,
            .paragraphSeparator:
            return true
        default:
            return properties.isWhitespace || properties.isDefaultIgnorableCodePoint
        }
    }
}
