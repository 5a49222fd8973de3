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

    /// What `pointer` refers to in `document`; `nil` when it refers to nothing or is not well formed. An array index
    /// is decimal digits without a leading zero.
    package static func resolve(_ pointer: String, in document: JSONValue) -> JSONValue? {
        guard let tokens = referenceTokens(pointer) else { return nil }
        var current = document
        for token in tokens {
            switch current {
            case .object(let members):
                guard let member = members.first(where: { $0.key == token }) else { return nil }
                current = member.value
            case .array(let elements):
                guard let index = arrayIndex(token), index < elements.count else { return nil }
                current = elements[index]
            default:
                return nil
            }
        }
        return current
    }

    private static func arrayIndex(_ token: String) -> Int? {
        guard !token.isEmpty, token.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
            token == "0" || !token.hasPrefix("0")
        else { return nil }
        return Int(token)
    }
}
