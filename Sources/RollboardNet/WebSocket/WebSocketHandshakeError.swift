/// Why an upgrade request is not a valid WebSocket handshake, and the HTTP status that says so.
struct WebSocketHandshakeError: Error, Sendable, Equatable {
    var status: HTTPStatus
    /// A precise, human-readable explanation, sent as the `detail` of the JSON error body.
    var detail: String

    init(status: HTTPStatus, detail: String) {
        self.status = status
        self.detail = detail
    }

    static let methodNotGET = Self(status: .badRequest, detail: "a WebSocket upgrade must use GET")
    static let httpVersionTooOld = Self(
        status: .badRequest, detail: "a WebSocket upgrade needs HTTP/1.1 or later")
    static let missingUpgradeToken = Self(
        status: .badRequest, detail: "the Upgrade header must contain the token websocket")
    static let missingConnectionUpgrade = Self(
        status: .badRequest, detail: "the Connection header must contain the token Upgrade")
    static let missingKey = Self(status: .badRequest, detail: "the Sec-WebSocket-Key header is missing")
    static let invalidKey = Self(
        status: .badRequest, detail: "Sec-WebSocket-Key must be exactly one base64-encoded 16-byte value")
    static let unsupportedVersion = Self(
        status: .upgradeRequired, detail: "only WebSocket version 13 is supported (Sec-WebSocket-Version: 13)")

    /// The error response: a JSON body, and for 426 the `Sec-WebSocket-Version` and `Upgrade` headers
    /// a client needs to retry.
    var response: HTTPResponse {
        var response = HTTPResponse.error(status, "invalid_websocket_handshake", detail: detail)
        if status == .upgradeRequired {
            response.headers.add(name: "Sec-WebSocket-Version", value: "13")
            response.headers.add(name: "Upgrade", value: "websocket")
        }
        return response
    }
}
