/// JSON Pointers (RFC 6901), as sources and webhooks address a value in a document.
package enum JSONPointer {
    /// The pointer's reference tokens with `~1` and `~0` decoded; `nil` unless it is empty or starts with `/` and
    /// every `~` is followed by 0 or 1.
    package static func referenceTokens(_ pointer: String) -> [String]? {
        if pointer.isEmpty { return [] }
        guard pointer.hasPrefix("/") else { return nil }
        var tokens: [String] = []
        for raw in pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            var token = ""
            var escaping = false
            for character in raw {
                if escaping {
                    switch character {
                    case "0": token.append("~")
                    case "1": token.append("/")
                    default: return nil
                    }
                    escaping = false
                } else if character == "~" {
                    escaping = true
                } else {
                    token.append(character)
                }
            }
            if escaping { return nil }
            tokens.append(token)
        }
        return tokens
    }
}
