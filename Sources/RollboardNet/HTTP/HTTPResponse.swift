/// An HTTP response to send: status, headers and a complete body.
public struct HTTPResponse: Sendable, Equatable {
    public var status: HTTPStatus
    public var headers: HTTPHeaders
    public var body: [UInt8]

    public init(status: HTTPStatus, headers: HTTPHeaders = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A response whose body is UTF-8 text with the given content type.
    public init(status: HTTPStatus, contentType: String, text: String) {
        self.init(status: status, headers: ["Content-Type": contentType], body: Array(text.utf8))
    }

    /// A JSON error body `{"error":…,"detail":…}`, the shape every Rollboard error uses.
    public static func error(_ status: HTTPStatus, _ error: String, detail: String) -> HTTPResponse {
        let body = "{\"error\":\(jsonQuoted(error)),\"detail\":\(jsonQuoted(detail))}"
        return HTTPResponse(status: status, contentType: "application/json", text: body)
    }
}

/// `text` as a JSON string literal, quotes included.
func jsonQuoted(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": result += "\\\""
        case "\\": result += "\\\\"
        case "\n": result += "\\n"
        case "\r": result += "\\r"
        case "\t": result += "\\t"
        case _ where scalar.value < 0x20:
            let hex = String(scalar.value, radix: 16)
            result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        default: result.unicodeScalars.append(scalar)
        }
    }
    return result + "\""
}
