/// One element of a `Sec-WebSocket-Extensions` header: an extension name and its parameters
/// (RFC 6455 section 9.1).
struct WebSocketExtensionOffer: Equatable {
    struct Parameter: Equatable {
        var name: String
        /// The value with any quoting removed, or `nil` for a parameter without a value.
        var value: String?
    }

    var name: String
    var parameters: [Parameter]

    /// The well-formed offers of every `Sec-WebSocket-Extensions` field, in order; malformed elements are left out.
    static func parse(_ fieldValues: [String]) -> [WebSocketExtensionOffer] {
        fieldValues.flatMap { value in
            splitOutsideQuotes(Array(value.utf8)[...], at: UInt8(ascii: ","))
                .filter { !trimmed($0).isEmpty }  // the `#rule` allows empty list elements
                .compactMap(parseElement)
        }
    }

    private static func parseElement(_ element: ArraySlice<UInt8>) -> WebSocketExtensionOffer? {
        let parts = splitOutsideQuotes(element, at: UInt8(ascii: ";")).map(trimmed)
        guard let nameBytes = parts.first, isToken(nameBytes) else { return nil }
        var parameters: [Parameter] = []
        for part in parts.dropFirst() {
            guard let parameter = parseParameter(part) else { return nil }
            parameters.append(parameter)
        }
        return WebSocketExtensionOffer(name: String(decoding: nameBytes, as: UTF8.self), parameters: parameters)
    }

    private static func parseParameter(_ part: ArraySlice<UInt8>) -> Parameter? {
        guard let equals = part.firstIndex(of: UInt8(ascii: "=")) else {
            return isToken(part) ? Parameter(name: String(decoding: part, as: UTF8.self), value: nil) : nil
        }
        let name = trimmed(part[..<equals])
        var value = trimmed(part[(equals + 1)...])
        guard isToken(name) else { return nil }
        if value.first == UInt8(ascii: "\"") {
            guard let unquoted = unquote(value) else { return nil }
            value = unquoted
        }
        // RFC 6455 section 9.1: a quoted value must still be a token once unescaped.
        guard isToken(value) else { return nil }
        return Parameter(name: String(decoding: name, as: UTF8.self), value: String(decoding: value, as: UTF8.self))
    }

    private static func unquote(_ quoted: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        guard quoted.count >= 2, quoted.last == UInt8(ascii: "\"") else { return nil }
        var result: [UInt8] = []
        var escaped = false
        for byte in quoted.dropFirst().dropLast() {
            if escaped {
                result.append(byte)
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                return nil
            } else {
                result.append(byte)
            }
        }
        return escaped ? nil : result[...]
    }

    private static func splitOutsideQuotes(_ bytes: ArraySlice<UInt8>, at separator: UInt8) -> [ArraySlice<UInt8>] {
        var pieces: [ArraySlice<UInt8>] = []
        var start = bytes.startIndex
        var inQuotes = false
        var escaped = false
        for index in bytes.indices {
            let byte = bytes[index]
            if inQuotes {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inQuotes = false
                }
            } else if byte == UInt8(ascii: "\"") {
                inQuotes = true
            } else if byte == separator {
                pieces.append(bytes[start..<index])
                start = index + 1
            }
        }
        pieces.append(bytes[start...])
        return pieces
    }

    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        let isBlank: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        guard let first = bytes.firstIndex(where: { !isBlank($0) }) else { return bytes[bytes.endIndex...] }
        let last = bytes.lastIndex(where: { !isBlank($0) })!
        return bytes[first...last]
    }

    /// Whether `bytes` is an RFC 7230 token: one or more visible ASCII characters other than separators.
    private static func isToken(_ bytes: ArraySlice<UInt8>) -> Bool {
        !bytes.isEmpty
            && bytes.allSatisfy { byte in
                byte > 0x20 && byte < 0x7F && !"()<>@,;:\\\"/[]?={}".utf8.contains(byte)
            }
    }
}
