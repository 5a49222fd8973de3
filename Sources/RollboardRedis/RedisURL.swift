/// Where a Redis server is and how to log in to it: `redis://[[USER]:PASSWORD@]HOST[:PORT][/DB]`, or `rediss://`
/// for TLS. The port defaults to 6379 and the database to 0; an IPv6 address is written in brackets
/// (`redis://[::1]:6380`). The user name and password are percent-decoded: a `@`, `:`, `/`, `?`, `#` or `%` in
/// them must be written `%40`, `%3A`, `%2F`, `%3F`, `%23`, `%25`.
///
/// `description` never shows the password: `redis://:***@cache.internal:6379/0`.
public struct RedisURL: Sendable, Equatable, CustomStringConvertible {
    /// The port used when a URL names none.
    public static let defaultPort = 6379

    public var host: String
    public var port: Int
    /// Sent with the password in `AUTH` (Redis 6 ACL users); `nil` logs in as the default user.
    public var username: String?
    /// `nil` (or empty in the URL): no `AUTH` is sent.
    public var password: String?
    public var database: Int
    /// `rediss://`: the connection speaks TLS.
    public var usesTLS: Bool

    public init(
        host: String, port: Int = RedisURL.defaultPort, username: String? = nil, password: String? = nil,
        database: Int = 0, usesTLS: Bool = false
    ) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.database = database
        self.usesTLS = usesTLS
    }

    /// Parses `text`; the error says which part is wrong (without repeating the password).
    public init(_ text: String) throws(RedisURLError) {
        guard let colon = text.firstIndex(of: ":"), text[colon...].hasPrefix("://") else {
            throw RedisURLError("missing scheme: a Redis URL starts with redis:// or rediss://")
        }
        switch text[..<colon].lowercased() {
        case "redis": usesTLS = false
        case "rediss": usesTLS = true
        case let scheme: throw RedisURLError("unsupported scheme '\(scheme)': expected redis:// or rediss://")
        }
        let rest = text[text.index(colon, offsetBy: 3)...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        let path = rest[authorityEnd...]

        var hostAndPort = authority
        username = nil
        password = nil
        if let at = authority.lastIndex(of: "@") {
            let userInfo = authority[..<at]
            hostAndPort = authority[authority.index(after: at)...]
            if let separator = userInfo.firstIndex(of: ":") {
                username = try Self.percentDecoded(userInfo[..<separator], what: "user name")
                password = try Self.percentDecoded(userInfo[userInfo.index(after: separator)...], what: "password")
            } else {
                username = try Self.percentDecoded(userInfo, what: "user name")
            }
            if username?.isEmpty == true { username = nil }
            if password?.isEmpty == true { password = nil }
        }
        (host, port) = try Self.parseHostAndPort(hostAndPort)
        database = try Self.parseDatabase(path)
    }

    public var description: String {
        var text = usesTLS ? "rediss://" : "redis://"
        if username != nil || password != nil {
            text += Self.percentEncoded(username ?? "")
            if password != nil { text += ":***" }
            text += "@"
        }
        text += host.contains(":") ? "[\(host)]" : host
        return text + ":\(port)/\(database)"
    }

    private static func parseHostAndPort(_ text: Substring) throws(RedisURLError) -> (String, Int) {
        let host: Substring
        var portText: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else {
                throw RedisURLError("missing ']' after the IPv6 address")
            }
            host = text[text.index(after: text.startIndex)..<close]
            let after = text[text.index(after: close)...]
            if after.hasPrefix(":") {
                portText = after.dropFirst()
            } else if !after.isEmpty {
                throw RedisURLError("unexpected '\(after)' after the IPv6 address: expected ':PORT' or nothing")
            }
        } else {
            let colons = text.filter { $0 == ":" }.count
            guard colons <= 1 else {
                throw RedisURLError("an IPv6 address must be in brackets, e.g. redis://[::1]:6379")
            }
            if let colon = text.firstIndex(of: ":") {
                host = text[..<colon]
                portText = text[text.index(after: colon)...]
            } else {
                host = text
            }
        }
        guard !host.isEmpty else { throw RedisURLError("empty host") }
        guard !host.contains(where: { $0.isWhitespace || $0 == "[" || $0 == "]" || $0 == "%" }) else {
            throw RedisURLError("invalid character in host '\(host)'")
        }
        guard let portText else { return (String(host), defaultPort) }
        guard !portText.isEmpty else { throw RedisURLError("empty port after ':'") }
        guard portText.allSatisfy({ $0.isASCII && $0.isNumber }), let port = Int(portText), (1...65_535).contains(port)
        else {
            throw RedisURLError("bad port '\(portText)': expected a number from 1 to 65535")
        }
        return (String(host), port)
    }

    private static func parseDatabase(_ path: Substring) throws(RedisURLError) -> Int {
        if path.hasPrefix("?") || path.hasPrefix("#") {
            throw RedisURLError("unexpected '\(path.first!)': query parameters and fragments are not supported")
        }
        let text = path.dropFirst()  // the "/"
        if let other = text.firstIndex(where: { $0 == "?" || $0 == "#" }) {
            throw RedisURLError("unexpected '\(text[other])': query parameters and fragments are not supported")
        }
        guard !text.isEmpty else { return 0 }
        guard text.allSatisfy({ $0.isASCII && $0.isNumber }), let database = Int(text) else {
            throw RedisURLError("bad database '\(text)': expected a number 0 or more after '/'")
        }
        return database
    }

    /// Decodes `%XX` escapes; the bytes must then be UTF-8.
    private static func percentDecoded(_ text: Substring, what: String) throws(RedisURLError) -> String {
        guard text.contains("%") else { return String(text) }
        let input = Array(text.utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(input.count)
        var index = 0
        while index < input.count {
            guard input[index] == UInt8(ascii: "%") else {
                bytes.append(input[index])
                index += 1
                continue
            }
            guard index + 2 < input.count, let high = hexValue(input[index + 1]), let low = hexValue(input[index + 2])
            else {
                throw RedisURLError("bad percent-encoding in the \(what): '%' must be followed by two hex digits")
            }
            bytes.append(high << 4 | low)
            index += 3
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else {
            throw RedisURLError("the \(what) is not UTF-8 once percent-decoded")
        }
        return decoded
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Escapes everything but RFC 3986's unreserved characters, so a user name reads back unchanged.
    private static func percentEncoded(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                bytes.append(byte)
            default:
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0f)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
