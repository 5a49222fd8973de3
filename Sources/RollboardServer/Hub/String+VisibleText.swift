extension String {
    /// The string without white space at either end.
    func trimmingWhitespaceAndNewlines() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })!
        return String(scalars[first...last])
    }

    /// The string without control or invisible characters and surrounding blanks, at most `limit` characters; `nil`
    /// if nothing is left (a screen's name, a script error it reports).
    func visibleText(limit: Int) -> String? {
        let visible = unicodeScalars.filter {
            !$0.properties.isDefaultIgnorableCodePoint && $0.properties.generalCategory != .control
        }
        let kept = String(String.UnicodeScalarView(visible)).trimmingWhitespaceAndNewlines()
        return kept.isEmpty ? nil : String(kept.prefix(limit))
    }
}
