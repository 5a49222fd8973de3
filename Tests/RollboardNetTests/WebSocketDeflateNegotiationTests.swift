import Testing

@testable import RollboardNet

/// `PerMessageDeflateParameters.negotiate` and the `Sec-WebSocket-Extensions` parsing under it.
@Suite struct WebSocketDeflateNegotiationTests {
    static let both = "server_no_context_takeover; client_no_context_takeover"

    /// Offers → our response header value with a 32 KiB server window; `nil` means declined.
    static let cases: [(String, String?)] = [
        ("permessage-deflate", "permessage-deflate; \(both)"),
        ("permessage-deflate; client_max_window_bits", "permessage-deflate; \(both)"),
        ("permessage-deflate; client_max_window_bits=10", "permessage-deflate; \(both); client_max_window_bits=10"),
        ("permessage-deflate; client_max_window_bits=\"10\"", "permessage-deflate; \(both); client_max_window_bits=10"),
        ("permessage-deflate; server_max_window_bits=10", "permessage-deflate; \(both); server_max_window_bits=10"),
        ("permessage-deflate; server_max_window_bits=8", "permessage-deflate; \(both); server_max_window_bits=8"),
        ("permessage-deflate; server_max_window_bits=15", "permessage-deflate; \(both); server_max_window_bits=15"),
        ("permessage-deflate; server_no_context_takeover", "permessage-deflate; \(both)"),
        ("permessage-deflate; client_no_context_takeover", "permessage-deflate; \(both)"),
        ("PerMessage-Deflate; Client_Max_Window_Bits=9", "permessage-deflate; \(both); client_max_window_bits=9"),
        (
            "permessage-deflate ;  client_max_window_bits = 12 ",
            "permessage-deflate; \(both); client_max_window_bits=12"
        ),
        // Declined offers fall through to the next acceptable one.
        (
            "permessage-deflate; foo, permessage-deflate; client_max_window_bits=11",
            "permessage-deflate; \(both); client_max_window_bits=11"
        ),
        ("x-webkit-deflate-frame, permessage-deflate", "permessage-deflate; \(both)"),
        (", permessage-deflate,", "permessage-deflate; \(both)"),
        // Declined: unknown, duplicate or invalid parameters.
        ("permessage-deflate; foo", nil),
        ("permessage-deflate; foo=1", nil),
        ("permessage-deflate; server_no_context_takeover; server_no_context_takeover", nil),
        ("permessage-deflate; client_no_context_takeover; client_no_context_takeover", nil),
        ("permessage-deflate; client_max_window_bits; client_max_window_bits=10", nil),
        ("permessage-deflate; server_max_window_bits=10; server_max_window_bits=10", nil),
        ("permessage-deflate; server_no_context_takeover=1", nil),
        ("permessage-deflate; client_no_context_takeover=\"x\"", nil),
        ("permessage-deflate; server_max_window_bits", nil),
        ("permessage-deflate; server_max_window_bits=7", nil),
        ("permessage-deflate; server_max_window_bits=16", nil),
        ("permessage-deflate; server_max_window_bits=010", nil),
        ("permessage-deflate; server_max_window_bits=+9", nil),
        ("permessage-deflate; client_max_window_bits=7", nil),
        ("permessage-deflate; client_max_window_bits=\"1 0\"", nil),
        ("permessage-deflate; client_max_window_bits=\"10", nil),
        ("permessage-deflate;", nil),
        ("x-webkit-deflate-frame", nil),
        ("", nil),
    ]

    @Test("negotiation answers each offer as the RFC allows", arguments: cases)
    func negotiates(offer: String, expected: String?) {
        let parameters = PerMessageDeflateParameters.negotiate(
            offers: [offer], configuration: PerMessageDeflateConfiguration(serverMaxWindowBits: 15))
        #expect(parameters?.responseHeaderValue == expected)
    }

    @Test("the default configuration announces its 8 KiB server window and asks for client_no_context_takeover")
    func defaults() {
        let parameters = PerMessageDeflateParameters.negotiate(
            offers: ["permessage-deflate; client_max_window_bits"], configuration: PerMessageDeflateConfiguration())
        #expect(parameters?.responseHeaderValue == "permessage-deflate; \(Self.both); server_max_window_bits=13")
        #expect(parameters?.serverMaxWindowBits == 13)
        #expect(parameters?.clientMaxWindowBits == 15)
    }

    @Test("offers spread over several header fields are read in order")
    func offersAcrossFields() {
        let parameters = PerMessageDeflateParameters.negotiate(
            offers: ["permessage-deflate; bogus", "permessage-deflate; server_max_window_bits=12"],
            configuration: PerMessageDeflateConfiguration(serverMaxWindowBits: 15))
        #expect(parameters?.serverMaxWindowBits == 12)
    }

    @Test("a smaller configured server window is announced even when not offered")
    func configuredServerWindowIsAnnounced() {
        let configuration = PerMessageDeflateConfiguration(serverMaxWindowBits: 11)
        let parameters = PerMessageDeflateParameters.negotiate(
            offers: ["permessage-deflate"], configuration: configuration)
        #expect(parameters?.responseHeaderValue == "permessage-deflate; \(Self.both); server_max_window_bits=11")
        let smaller = PerMessageDeflateParameters.negotiate(
            offers: ["permessage-deflate; server_max_window_bits=9"], configuration: configuration)
        #expect(smaller?.serverMaxWindowBits == 9)
    }

    @Test("a smaller configured client window is asked for only when the client offered the parameter")
    func configuredClientWindowNeedsOffer() {
        let configuration = PerMessageDeflateConfiguration(serverMaxWindowBits: 15, clientMaxWindowBits: 10)
        let withParameter = PerMessageDeflateParameters.negotiate(
            offers: ["permessage-deflate; client_max_window_bits"], configuration: configuration)
        #expect(withParameter?.clientMaxWindowBits == 10)
        #expect(withParameter?.responseHeaderValue == "permessage-deflate; \(Self.both); client_max_window_bits=10")
        let without = PerMessageDeflateParameters.negotiate(
            offers: ["permessage-deflate"], configuration: configuration)
        #expect(without?.clientMaxWindowBits == 15)
        #expect(without?.responseHeaderValue == "permessage-deflate; \(Self.both)")
    }

    @Test("client context takeover is left alone when not requested and not offered")
    func clientContextTakeoverCanBeKept() {
        let configuration = PerMessageDeflateConfiguration(
            serverMaxWindowBits: 15, requestsClientNoContextTakeover: false)
        let parameters = PerMessageDeflateParameters.negotiate(
            offers: ["permessage-deflate"], configuration: configuration)
        #expect(parameters?.clientNoContextTakeover == false)
        #expect(parameters?.responseHeaderValue == "permessage-deflate; server_no_context_takeover")
    }

    @Test("extension offers parse names, bare parameters and quoted values")
    func parsesOffers() {
        let offers = WebSocketExtensionOffer.parse([#"a; b; c="d\"e" , f;g=1"#])
        #expect(offers.map(\.name) == ["f"])  // `d"e` is not a token, so only the first element is dropped
        let valid = WebSocketExtensionOffer.parse(["a; b; c=\"d\", f;g=1"])
        #expect(
            valid == [
                WebSocketExtensionOffer(
                    name: "a", parameters: [.init(name: "b", value: nil), .init(name: "c", value: "d")]),
                WebSocketExtensionOffer(name: "f", parameters: [.init(name: "g", value: "1")]),
            ])
    }
}
