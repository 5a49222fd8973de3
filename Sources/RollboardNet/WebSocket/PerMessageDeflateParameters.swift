/// The permessage-deflate parameters agreed with one client (RFC 7692 section 7.1).
struct PerMessageDeflateParameters: Sendable, Equatable {
    /// Whether the server compresses each message with a fresh context (true unless the configuration allows
    /// context takeover and the client did not ask for it).
    var serverNoContextTakeover: Bool
    /// Whether the client compresses each message with a fresh context.
    var clientNoContextTakeover: Bool
    /// The largest LZ77 window the server may compress with, 8...15.
    var serverMaxWindowBits: Int
    /// The largest LZ77 window the client may compress with, 8...15.
    var clientMaxWindowBits: Int
    /// Whether the response names `server_max_window_bits` (required when the client offered it).
    var announcesServerMaxWindowBits: Bool
    /// Whether the response names `client_max_window_bits` (allowed only when the client offered it).
    var announcesClientMaxWindowBits: Bool

    init(
        serverNoContextTakeover: Bool = true,
        clientNoContextTakeover: Bool = true,
        serverMaxWindowBits: Int = 15,
        clientMaxWindowBits: Int = 15
    ) {
        self.serverNoContextTakeover = serverNoContextTakeover
        self.clientNoContextTakeover = clientNoContextTakeover
        self.serverMaxWindowBits = serverMaxWindowBits
        self.clientMaxWindowBits = clientMaxWindowBits
        self.announcesServerMaxWindowBits = serverMaxWindowBits < 15
        self.announcesClientMaxWindowBits = clientMaxWindowBits < 15
    }

    /// The `Sec-WebSocket-Extensions` value of the handshake response.
    var responseHeaderValue: String {
        var parts = ["permessage-deflate"]
        if serverNoContextTakeover { parts.append("server_no_context_takeover") }
        if clientNoContextTakeover { parts.append("client_no_context_takeover") }
        if announcesServerMaxWindowBits { parts.append("server_max_window_bits=\(serverMaxWindowBits)") }
        if announcesClientMaxWindowBits { parts.append("client_max_window_bits=\(clientMaxWindowBits)") }
        return parts.joined(separator: "; ")
    }

    /// The window zlib compresses with: zlib's raw deflate refuses 8, and a 9-bit zlib window never
    /// emits distances beyond 250, so its output is valid for an 8-bit peer.
    var zlibServerWindowBits: Int { max(9, serverMaxWindowBits) }

    /// Accepts the first acceptable permessage-deflate offer in the `Sec-WebSocket-Extensions` fields,
    /// or returns `nil` when none is (offers with unknown, duplicate or invalid parameters are declined,
    /// RFC 7692 section 5.1).
    static func negotiate(
        offers fieldValues: [String],
        configuration: PerMessageDeflateConfiguration
    ) -> PerMessageDeflateParameters? {
        for offer in WebSocketExtensionOffer.parse(fieldValues)
        where offer.name.caseInsensitiveEquals("permessage-deflate") {
            if let accepted = accept(offer, configuration: configuration) { return accepted }
        }
        return nil
    }

    private static func accept(
        _ offer: WebSocketExtensionOffer,
        configuration: PerMessageDeflateConfiguration
    ) -> PerMessageDeflateParameters? {
        var clientNoContextTakeover = false
        var serverNoContextTakeoverSeen = false
        var offeredServerBits: Int?
        /// `.some(nil)`: offered without a value.
        var offeredClientBits: Int??
        for parameter in offer.parameters {
            switch parameter.name.lowercased() {
            case "server_no_context_takeover":
                guard parameter.value == nil, !serverNoContextTakeoverSeen else { return nil }
                serverNoContextTakeoverSeen = true
            case "client_no_context_takeover":
                guard parameter.value == nil, !clientNoContextTakeover else { return nil }
                clientNoContextTakeover = true
            case "server_max_window_bits":
                guard offeredServerBits == nil, let bits = parameter.value.flatMap(windowBits) else { return nil }
                offeredServerBits = bits
            case "client_max_window_bits":
                guard offeredClientBits == nil else { return nil }
                if let value = parameter.value {
                    guard let bits = windowBits(value) else { return nil }
                    offeredClientBits = .some(bits)
                } else {
                    offeredClientBits = .some(nil)
                }
            default:
                return nil
            }
        }

        let serverBits = min(offeredServerBits ?? 15, configuration.serverMaxWindowBits)
        var parameters = PerMessageDeflateParameters(
            serverNoContextTakeover: serverNoContextTakeoverSeen || !configuration.allowsServerContextTakeover,
            clientNoContextTakeover: clientNoContextTakeover || configuration.requestsClientNoContextTakeover,
            serverMaxWindowBits: serverBits,
            clientMaxWindowBits: 15
        )
        // RFC 7692 section 7.1.2.1: a server may name server_max_window_bits even when not offered,
        // and must answer an offered one with the same or a smaller value.
        parameters.announcesServerMaxWindowBits = offeredServerBits != nil || serverBits < 15
        // Section 7.1.2.2: client_max_window_bits may be answered only when offered; without it the
        // client may use a 32 KiB window whatever we would prefer.
        switch offeredClientBits {
        case .none:
            parameters.announcesClientMaxWindowBits = false
        case .some(let offered):
            let bits = min(offered ?? 15, configuration.clientMaxWindowBits)
            parameters.clientMaxWindowBits = bits
            parameters.announcesClientMaxWindowBits = bits < 15 || offered != nil
        }
        return parameters
    }

    /// A window-bits value: a decimal 8...15 without leading zeros.
    private static func windowBits(_ text: String) -> Int? {
        guard text.utf8.count <= 2, text.first != "0", text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            let bits = Int(text), (8...15).contains(bits)
        else { return nil }
        return bits
    }
}
