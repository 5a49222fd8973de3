import Testing

@testable import RollboardNet

@Suite struct WebSocketHandshakeTests {
    static let key = "dGhlIHNhbXBsZSBub25jZQ=="

    static func upgradeRequest(
        method: String = "GET",
        version: HTTPVersion = .http11,
        removing removed: [String] = [],
        setting replacements: [(String, String)] = [],
        adding extra: [(String, String)] = []
    ) -> HTTPRequest {
        var headers: HTTPHeaders = [
            "Host": "localhost",
            "Upgrade": "websocket",
            "Connection": "keep-alive, Upgrade",
            "Sec-WebSocket-Key": key,
            "Sec-WebSocket-Version": "13",
        ]
        for name in removed { headers.remove(name: name) }
        for (name, value) in replacements { headers.replaceOrAdd(name: name, value: value) }
        for (name, value) in extra { headers.add(name: name, value: value) }
        return HTTPRequest(method: method, target: "/ws", version: version, headers: headers)
    }

    @Test("the accept value for RFC 6455's sample key is the RFC's")
    func acceptValueMatchesRFCExample() {
        #expect(WebSocketHandshake.acceptValue(forKey: Self.key) == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test("a valid upgrade gets 101 with Upgrade, Connection and Sec-WebSocket-Accept")
    func validUpgradeSwitchesProtocols() throws {
        let handshake = try WebSocketHandshake(
            request: Self.upgradeRequest(), configuration: WebSocketConfiguration(deflate: nil))
        #expect(handshake.response.status == .switchingProtocols)
        #expect(handshake.response.headers["Upgrade"] == "websocket")
        #expect(handshake.response.headers["Connection"] == "Upgrade")
        #expect(handshake.response.headers["Sec-WebSocket-Accept"] == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        #expect(handshake.response.headers["Sec-WebSocket-Extensions"] == nil)
        #expect(handshake.deflate == nil)
    }

    @Test("header names and tokens match case-insensitively")
    func tokensAreCaseInsensitive() throws {
        let request = Self.upgradeRequest(setting: [("upgrade", "WebSocket"), ("connection", "UPGRADE")])
        let handshake = try WebSocketHandshake(request: request, configuration: WebSocketConfiguration())
        #expect(handshake.response.status == .switchingProtocols)
    }

    @Test("a permessage-deflate offer is answered in Sec-WebSocket-Extensions")
    func deflateOfferIsAnswered() throws {
        let request = Self.upgradeRequest(adding: [
            ("Sec-WebSocket-Extensions", "permessage-deflate; client_max_window_bits=12")
        ])
        let handshake = try WebSocketHandshake(request: request, configuration: WebSocketConfiguration())
        #expect(
            handshake.response.headers["Sec-WebSocket-Extensions"]
                == "permessage-deflate; server_no_context_takeover; client_no_context_takeover; server_max_window_bits=13; client_max_window_bits=12"
        )
        #expect(handshake.deflate?.clientNoContextTakeover == true)
    }

    @Test("a deflate offer is ignored when compression is off")
    func deflateOffIgnoresOffer() throws {
        let request = Self.upgradeRequest(adding: [("Sec-WebSocket-Extensions", "permessage-deflate")])
        let handshake = try WebSocketHandshake(request: request, configuration: WebSocketConfiguration(deflate: nil))
        #expect(handshake.deflate == nil)
        #expect(handshake.response.headers["Sec-WebSocket-Extensions"] == nil)
    }

    static let invalidRequests: [(String, HTTPRequest, WebSocketHandshakeError)] = [
        ("POST", upgradeRequest(method: "POST"), .methodNotGET),
        ("HTTP/1.0", upgradeRequest(version: .http10), .httpVersionTooOld),
        ("no Upgrade", upgradeRequest(removing: ["Upgrade"]), .missingUpgradeToken),
        ("Upgrade: h2c", upgradeRequest(setting: [("Upgrade", "h2c")]), .missingUpgradeToken),
        ("no Connection", upgradeRequest(removing: ["Connection"]), .missingConnectionUpgrade),
        ("Connection: keep-alive", upgradeRequest(setting: [("Connection", "keep-alive")]), .missingConnectionUpgrade),
        ("no version", upgradeRequest(removing: ["Sec-WebSocket-Version"]), .unsupportedVersion),
        ("version 8", upgradeRequest(setting: [("Sec-WebSocket-Version", "8")]), .unsupportedVersion),
        ("two versions", upgradeRequest(adding: [("Sec-WebSocket-Version", "8")]), .unsupportedVersion),
        ("no key", upgradeRequest(removing: ["Sec-WebSocket-Key"]), .missingKey),
        ("key not base64", upgradeRequest(setting: [("Sec-WebSocket-Key", "not base64 at all!!!!!!!")]), .invalidKey),
        ("key of 15 bytes", upgradeRequest(setting: [("Sec-WebSocket-Key", "AAAAAAAAAAAAAAAAAAAA")]), .invalidKey),
        ("key of 17 bytes", upgradeRequest(setting: [("Sec-WebSocket-Key", "AAAAAAAAAAAAAAAAAAAAAAA=")]), .invalidKey),
        ("key unpadded", upgradeRequest(setting: [("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ")]), .invalidKey),
        (
            "key non-canonical", upgradeRequest(setting: [("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZR==")]),
            .invalidKey
        ),
        ("two keys", upgradeRequest(adding: [("Sec-WebSocket-Key", key)]), .invalidKey),
    ]

    @Test("an invalid upgrade is refused with the precise error", arguments: invalidRequests)
    func invalidUpgradeIsRefused(name: String, request: HTTPRequest, expected: WebSocketHandshakeError) {
        #expect(throws: expected, "\(name)") {
            try WebSocketHandshake(request: request, configuration: WebSocketConfiguration())
        }
    }

    @Test("a wrong version gets 426 with Sec-WebSocket-Version: 13 and a JSON detail")
    func wrongVersionResponse() {
        let response = WebSocketHandshakeError.unsupportedVersion.response
        #expect(response.status.code == 426)
        #expect(response.headers["Sec-WebSocket-Version"] == "13")
        #expect(response.headers["Upgrade"] == "websocket")
        #expect(response.headers["Content-Type"] == "application/json")
    }

    @Test("a bad key gets 400 whose JSON body names the problem")
    func badKeyResponse() {
        let response = WebSocketHandshakeError.invalidKey.response
        #expect(response.status == .badRequest)
        let body = String(decoding: response.body, as: UTF8.self)
        #expect(body.contains("\"error\":\"invalid_websocket_handshake\""))
        #expect(body.contains("Sec-WebSocket-Key"))
    }

    static let base64Cases: [(String, [UInt8]?)] = [
        ("", []),
        ("Zg==", Array("f".utf8)),
        ("Zm8=", Array("fo".utf8)),
        ("Zm9v", Array("foo".utf8)),
        ("Zm9vYg==", Array("foob".utf8)),
        ("Zm9=", nil),
        ("Zg=", nil),
        ("Z===", nil),
        ("Zm=v", nil),
        ("Zm9v\n", nil),
    ]

    @Test("base64 decoding accepts only canonical padded input", arguments: base64Cases)
    func base64Decoding(text: String, expected: [UInt8]?) {
        #expect(Base64.decode(text) == expected)
        if let expected { #expect(Base64.encode(expected) == text) }
    }
}
