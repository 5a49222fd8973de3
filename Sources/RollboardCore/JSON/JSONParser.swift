import RollboardNet
/// A strict RFC 8259 JSON parser over bytes.
///
/// Unlike `JSONSerialization` it keeps every number's literal (so `1e400` is reported rather than silently made
/// infinite, and integers beyond 2^53 are seen for what they are), refuses duplicate keys, and reports the byte
/// offset of the first error. `NaN` and `Infinity` are not JSON and are refused as syntax errors. Parsing takes time
/// linear in the input: duplicate keys are found with a hash set, never by comparing every pair.
package struct JSONParser {
    /// Why and where parsing stopped.
    package struct Failure: Error, Equatable, CustomStringConvertible {
        let offset: Int
        let reason: String

        package var description: String { "\(reason) at byte \(offset)" }
    }

    static let maximumDepth = 32

    private let bytes: [UInt8]
    private var position = 0
    private var depth = 0

    private init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Parses one JSON value filling all of `bytes` (whitespace around it allowed).
    package static func parse(_ bytes: [UInt8]) throws(Failure) -> JSONValue {
        var parser = JSONParser(bytes)
        parser.skipWhitespace()
        let value = try parser.parseValue()
        parser.skipWhitespace()
        guard parser.position == bytes.count else { throw parser.failure("unexpected data after the JSON value") }
        return value
    }

    private func failure(_ reason: String) -> Failure {
        Failure(offset: position, reason: reason)
    }

    private var current: UInt8? {
        position < bytes.count ? bytes[position] : nil
    }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { position += 1 }
    }

    private mutating func expect(_ literal: String, _ value: JSONValue) throws(Failure) -> JSONValue {
        let utf8 = Array(literal.utf8)
        guard bytes.count - position >= utf8.count, Array(bytes[position..<position + utf8.count]) == utf8 else {
            throw failure("invalid literal (expected \(literal))")
        }
        position += utf8.count
        return value
    }

    private mutating func parseValue() throws(Failure) -> JSONValue {
        guard let byte = current else { throw failure("unexpected end of input, expected a value") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): return try expect("true", .bool(true))
        case UInt8(ascii: "f"): return try expect("false", .bool(false))
        case UInt8(ascii: "n"): return try expect("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default:
            throw failure("unexpected character '\(Character(Unicode.Scalar(byte)))', expected a value")
        }
    }

    private mutating func nest() throws(Failure) {
        depth += 1
        guard depth <= Self.maximumDepth else { throw failure("nested more than \(Self.maximumDepth) levels deep") }
    }

    private mutating func parseObject() throws(Failure) -> JSONValue {
        try nest()
        position += 1
        var members: [JSONMember] = []
        var keys: Set<String> = []
        skipWhitespace()
        if closes(UInt8(ascii: "}")) { return .object(members) }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw failure("expected a string key") }
            let keyOffset = position
            let key = try parseString()
            guard keys.insert(key).inserted else {
                throw Failure(offset: keyOffset, reason: "duplicate key \(JSONText.quoted(key))")
            }
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw failure("expected ':' after a key") }
            position += 1
            skipWhitespace()
            members.append(JSONMember(key, try parseValue()))
            if try endsAfterItem(UInt8(ascii: "}"), otherwise: "expected ',' or '}' in an object") {
                return .object(members)
            }
        }
    }

    private mutating func parseArray() throws(Failure) -> JSONValue {
        try nest()
        position += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if closes(UInt8(ascii: "]")) { return .array(items) }
        while true {
            skipWhitespace()
            items.append(try parseValue())
            if try endsAfterItem(UInt8(ascii: "]"), otherwise: "expected ',' or ']' in an array") {
                return .array(items)
            }
        }
    }

    /// Steps over `close` and out of the object or array it ends when it is the current byte.
    private mutating func closes(_ close: UInt8) -> Bool {
        guard current == close else { return false }
        position += 1
        depth -= 1
        return true
    }

    /// After an item of an object or array: steps over a ',' (false: an item follows) or over `close` (true: the
    /// object or array ends); fails with `reason` on anything else.
    private mutating func endsAfterItem(_ close: UInt8, otherwise reason: String) throws(Failure) -> Bool {
        skipWhitespace()
        if current == UInt8(ascii: ",") {
            position += 1
            return false
        }
        guard closes(close) else { throw failure(reason) }
        return true
    }

    private mutating func parseNumber() throws(Failure) -> JSONValue {
        let start = position
        func digits(_ parser: inout JSONParser) -> Int {
            let from = parser.position
            while let byte = parser.current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                parser.position += 1
            }
            return parser.position - from
        }
        if current == UInt8(ascii: "-") { position += 1 }
        let integerStart = position
        let integerDigits = digits(&self)
        guard integerDigits > 0 else { throw failure("expected a digit") }
        if integerDigits > 1 && bytes[integerStart] == UInt8(ascii: "0") {
            throw Failure(offset: integerStart, reason: "a number must not start with 0")
        }
        if current == UInt8(ascii: ".") {
            position += 1
            guard digits(&self) > 0 else { throw failure("expected a digit after '.'") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            position += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
            guard digits(&self) > 0 else { throw failure("expected a digit in the exponent") }
        }
        return .number(JSONNumber(literal: String(decoding: bytes[start..<position], as: UTF8.self)))
    }

    private mutating func parseString() throws(Failure) -> String {
        position += 1
        var utf8: [UInt8] = []
        while true {
            guard let byte = current else { throw failure("unterminated string") }
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                guard let text = String(validating: utf8, as: UTF8.self) else {
                    throw failure("a string is not valid UTF-8")
                }
                return text
            case UInt8(ascii: "\\"):
                position += 1
                guard let escape = current else { throw failure("unterminated escape") }
                position += 1
                switch escape {
                case UInt8(ascii: "\""): utf8.append(0x22)
                case UInt8(ascii: "\\"): utf8.append(0x5C)
                case UInt8(ascii: "/"): utf8.append(0x2F)
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try parseHex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        guard current == UInt8(ascii: "\\"), position + 1 < bytes.count,
                            bytes[position + 1] == UInt8(ascii: "u")
                        else { throw failure("a high surrogate must be followed by a low surrogate") }
                        position += 2
                        let low = try parseHex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw failure("invalid low surrogate") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00..<0xE000).contains(scalar) {
                        throw failure("a lone low surrogate")
                    }
                    utf8.append(contentsOf: Array(String(Character(Unicode.Scalar(scalar)!)).utf8))
                default:
                    throw failure("invalid escape '\\\(Character(Unicode.Scalar(escape)))'")
                }
            case 0..<0x20:
                throw failure("a control character in a string must be escaped")
            default:
                utf8.append(byte)
                position += 1
            }
        }
    }

    private mutating func parseHex4() throws(Failure) -> UInt32 {
        guard bytes.count - position >= 4 else { throw failure("expected 4 hex digits after \\u") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw failure("expected 4 hex digits after \\u")
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }
}
