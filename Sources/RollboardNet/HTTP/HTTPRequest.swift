/// One parsed HTTP/1.x request.
public struct HTTPRequest: Sendable, Equatable {
    /// The method token as sent, e.g. `GET`.
    public var method: String
    /// The raw request-target, e.g. `/ws?dashboard=demo`.
    public var target: String
    /// The HTTP version: `(1, 1)` or `(1, 0)`.
    public var version: HTTPVersion
    public var headers: HTTPHeaders
    public var body: [UInt8]

    public init(
        method: String,
        target: String,
        version: HTTPVersion = .http11,
        headers: HTTPHeaders = [:],
        body: [UInt8] = []
    ) {
        self.method = method
        self.target = target
        self.version = version
        self.headers = headers
        self.body = body
    }

    /// The client's IP address (no port), as the server saw the connection; `nil` when not known.
    public var remoteAddress: String?

    /// The percent-decoded path of the target, without its query.
    public var path: String {
        let raw = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return Self.percentDecoded(raw) ?? String(raw)
    }

    /// The query parameters of the target, percent-decoded (`+` is a space); later duplicates win.
    public var query: [String: String] {
        guard let mark = target.firstIndex(of: "?") else { return [:] }
        var result: [String: String] = [:]
        for pair in target[target.index(after: mark)...].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = Self.percentDecoded(parts[0].replacingPlus()) ?? String(parts[0])
            let value = parts.count > 1 ? (Self.percentDecoded(parts[1].replacingPlus()) ?? String(parts[1])) : ""
            result[name] = value
        }
        return result
    }

    /// Whether the connection stays open after this request, from the version and `Connection` header.
    public var keepAlive: Bool {
        if headers.containsToken("close", in: "Connection") { return false }
        if version == .http10 { return headers.containsToken("keep-alive", in: "Connection") }
        return true
    }

    static func percentDecoded(_ text: some StringProtocol) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                    return nil
                }
                bytes.append(high << 4 | low)
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }
}

private func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
}

extension Substring {
    fileprivate func replacingPlus() -> String {
        String(map { $0 == "+" ? " " : $0 })
    }
}
