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
        let body = "{\"error\":\(JSONText.quoted(error)),\"detail\":\(JSONText.quoted(detail))}"
        return HTTPResponse(status: status, contentType: "application/json", text: body)
    }
}
