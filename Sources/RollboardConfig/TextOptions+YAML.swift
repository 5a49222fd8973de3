
extension TextOptions {
    /// Reads `text` (a ``DisplayText/text``, empty allowed) and `align` (`left`, `center`, `right`); `nil` when one is wrong
    /// (reported).
    init?(reader: YAMLMappingReader) {
        self.init()
        if reader.node("text") != nil {
            guard let text = reader.string("text") else { return nil }
            if let problem = DisplayText.text.problem(with: text, allowsEmpty: true) {
                reader.report("text", problem)
                return nil
            }
            self.text = text
        }
        if let name = reader.string("align") {
            guard let align = Alignment(rawValue: name) else {
                reader.report(
                    "align",
                    "must be one of \(Alignment.allCases.map(\.rawValue).joined(separator: ", ")), got \"\(name)\"")
                return nil
            }
            self.align = align
        } else if reader.node("align") != nil {
            return nil
        }
    }
}
