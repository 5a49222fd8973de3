internal import COpenSSL

/// A validated WebSocket opening handshake (RFC 6455 section 4.2): the 101 response to send and the
/// permessage-deflate parameters agreed with the client.
///
/// Origin checks and routing belong to the layer above; this only judges the protocol.
struct WebSocketHandshake: Sendable {
    /// The `101 Switching Protocols` response, with `Sec-WebSocket-Accept` and any negotiated extension.
    let response: HTTPResponse
    /// The negotiated compression, or `nil` when the connection is uncompressed.
    let deflate: PerMessageDeflateParameters?

    /// The GUID that RFC 6455 appends to the client's key.
    static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// Validates `request` as a WebSocket upgrade and negotiates permessage-deflate.
    ///
    /// Throws a ``WebSocketHandshakeError`` whose ``WebSocketHandshakeError/response`` is the 400 or 426 to send.
    init(request: HTTPRequest, configuration: WebSocketConfiguration) throws(WebSocketHandshakeError) {
        guard request.method == "GET" else { throw .methodNotGET }
        guard request.version.major > 1 || (request.version.major == 1 && request.version.minor >= 1) else {
            throw .httpVersionTooOld
        }
        guard request.headers.containsToken("websocket", in: "Upgrade") else { throw .missingUpgradeToken }
        guard request.headers.containsToken("Upgrade", in: "Connection") else { throw .missingConnectionUpgrade }
        let versions = request.headers.values(for: "Sec-WebSocket-Version")
        guard versions.count == 1, versions[0].trimmingWhitespace() == "13" else { throw .unsupportedVersion }
        let keys = request.headers.values(for: "Sec-WebSocket-Key")
        guard !keys.isEmpty else { throw .missingKey }
        let key = String(keys[0].trimmingWhitespace())
        guard keys.count == 1, Base64.decode(key)?.count == 16 else { throw .invalidKey }

        var response = HTTPResponse(status: .switchingProtocols)
        response.headers.add(name: "Upgrade", value: "websocket")
        response.headers.add(name: "Connection", value: "Upgrade")
        response.headers.add(name: "Sec-WebSocket-Accept", value: Self.acceptValue(forKey: key))
        let deflate = configuration.deflate.flatMap {
            PerMessageDeflateParameters.negotiate(
                offers: request.headers.values(for: "Sec-WebSocket-Extensions"), configuration: $0)
        }
        if let deflate {
            response.headers.add(name: "Sec-WebSocket-Extensions", value: deflate.responseHeaderValue)
        }
        self.response = response
        self.deflate = deflate
    }

    /// `Sec-WebSocket-Accept` for a client key: base64(SHA-1(key + GUID)).
    static func acceptValue(forKey key: String) -> String {
        let input = Array((key + guid).utf8)
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let status = EVP_Digest(input, input.count, &digest, &length, EVP_sha1(), nil)
        precondition(status == 1, "OpenSSL SHA-1 failed")
        return Base64.encode(digest.prefix(Int(length)))
    }
}
