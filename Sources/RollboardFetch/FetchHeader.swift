/// One request header line.
public struct FetchHeader: Sendable, Equatable {
    /// As written in the source's `headers` (its case kept).
    public var name: String
    /// With `${NAME}` already replaced from the environment.
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// A token name (RFC 9110: letters, digits and ``!#$%&'*+-.^_`|~``) and a value without CR, LF or NUL: nothing a
    /// header could smuggle into the next line.
    public var isWellFormed: Bool {
        let tokenPunctuation = Set("!#$%&'*+-.^_`|~".utf8)
        let nameIsToken =
            !name.isEmpty
            && name.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A)
                    || tokenPunctuation.contains(byte)
            }
        return nameIsToken && !value.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0 }
    }
}
