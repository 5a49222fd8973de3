import RollboardTestSupport
import Testing

@testable import RollboardNet

@Suite struct WebSocketProtocolHandlerTests {
    static let start = ContinuousClock.now

    static func handler(
        maxMessageBytes: Int = 1 << 20,
        deflate: PerMessageDeflateParameters? = nil
    ) -> WebSocketProtocolHandler {
        WebSocketProtocolHandler(
            configuration: WebSocketConfiguration(maxMessageBytes: maxMessageBytes), deflate: deflate, now: start)
    }

    /// The actions of failing with `code`: our close frame, then closing the connection.
    static func failure(_ code: WebSocketCloseCode, _ reason: String) -> [WebSocketAction] {
        [
            .send(WebSocketFrameEncoder.close(code: code, reason: reason)), .closeConnection,
            .didClose(code: code, reason: reason),
        ]
    }

    static func closePayload(_ code: UInt16, _ reason: [UInt8] = []) -> [UInt8] {
        [UInt8(code >> 8), UInt8(code & 0xFF)] + reason
    }

    // MARK: Messages

    @Test("text and binary messages are delivered whole")
    func deliversMessages() {
        var handler = Self.handler()
        let actions = handler.receive(
            maskedClientFrame(.text, Array("Hello".utf8)) + maskedClientFrame(.binary, [1, 2, 3]))
        #expect(actions == [.deliverText("Hello"), .deliverBinary([1, 2, 3])])
    }

    @Test("a fragmented message with an interleaved ping is answered and delivered")
    func fragmentedWithPing() {
        var handler = Self.handler()
        #expect(handler.receive(maskedClientFrame(.text, Array("Hel".utf8), isFinal: false)) == [])
        #expect(
            handler.receive(maskedClientFrame(.ping, [7, 8])) == [
                .send(WebSocketFrameEncoder.frame(.pong, payload: [7, 8]))
            ])
        #expect(handler.receive(maskedClientFrame(.continuation, Array("lo".utf8))) == [.deliverText("Hello")])
    }

    @Test("a ping is answered with a pong carrying the same payload and an unsolicited pong is ignored")
    func pingPong() {
        var handler = Self.handler()
        let payload = Array(0..<125).map(UInt8.init)
        #expect(
            handler.receive(maskedClientFrame(.ping, payload)) == [
                .send(WebSocketFrameEncoder.frame(.pong, payload: payload))
            ])
        #expect(handler.receive(maskedClientFrame(.pong, [1])) == [])
    }

    @Test("UTF-8 split across fragments is delivered")
    func utf8AcrossFragments() {
        var handler = Self.handler()
        let euro: [UInt8] = [0xE2, 0x82, 0xAC]
        #expect(handler.receive(maskedClientFrame(.text, [0x61, euro[0]], isFinal: false)) == [])
        #expect(handler.receive(maskedClientFrame(.continuation, [euro[1]], isFinal: false)) == [])
        #expect(handler.receive(maskedClientFrame(.continuation, [euro[2], 0x62])) == [.deliverText("a€b")])
    }

    @Test("invalid UTF-8 fails with 1007 as soon as its fragment arrives")
    func invalidUTF8FailsFast() {
        var handler = Self.handler()
        #expect(handler.receive(maskedClientFrame(.text, Array("κόσμε".utf8), isFinal: false)) == [])
        let actions = handler.receive(maskedClientFrame(.continuation, [0xED, 0xA0, 0x80], isFinal: false))
        #expect(actions == Self.failure(.invalidPayload, "invalid UTF-8"))
        #expect(handler.receive(maskedClientFrame(.continuation, Array("edited".utf8))) == [])
    }

    @Test("invalid UTF-8 fails before the rest of its frame arrives")
    func invalidUTF8FailsWithinFrame() {
        var handler = Self.handler()
        let frame = maskedClientFrame(.text, Array("abc".utf8) + [0xF4, 0x90] + Array(repeating: 0x61, count: 100))
        // Header of 6 bytes, then "abc" and F4, which may still start a valid scalar; 90 cannot follow F4.
        #expect(handler.receive(frame.prefix(10)) == [])
        #expect(handler.receive(frame[10..<11]) == Self.failure(.invalidPayload, "invalid UTF-8"))
    }

    @Test("a text message ending inside a scalar fails with 1007")
    func truncatedScalar() {
        var handler = Self.handler()
        #expect(
            handler.receive(maskedClientFrame(.text, [0x61, 0xE2, 0x82]))
                == Self.failure(.invalidPayload, "invalid UTF-8"))
    }

    @Test("a message over the limit fails with 1009")
    func messageTooBig() {
        var handler = Self.handler(maxMessageBytes: 100)
        let actions = handler.receive(maskedClientFrame(.binary, [UInt8](repeating: 0, count: 101)))
        #expect(actions == Self.failure(.messageTooBig, "frame too big"))
    }

    static let violations: [(String, [UInt8], WebSocketCloseCode)] = [
        ("unmasked", [0x81, 0x00], .protocolError),
        ("reserved bit", [0xC1, 0x80, 0, 0, 0, 0], .protocolError),
        ("unknown opcode", [0x83, 0x80, 0, 0, 0, 0], .protocolError),
        ("fragmented ping", [0x09, 0x80, 0, 0, 0, 0], .protocolError),
        ("long ping", [0x89, 0xFE, 0x00, 0x7E, 0, 0, 0, 0], .protocolError),
        ("stray continuation", [0x80, 0x80, 0, 0, 0, 0], .protocolError),
        ("close of one byte", maskedClientFrame(.close, [0x03]), .protocolError),
        ("close reason not UTF-8", maskedClientFrame(.close, closePayload(1000, [0xFF])), .invalidPayload),
        ("oversized frame", [0x82, 0xFF, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0], .messageTooBig),
    ]

    @Test("each violation sends a close frame with its code and closes", arguments: violations)
    func violationCloses(name: String, bytes: [UInt8], code: WebSocketCloseCode) {
        var handler = Self.handler()
        let actions = handler.receive(bytes)
        #expect(actions.count == 3, "\(name)")
        guard case .send(let frame) = actions.first else {
            Issue.record("\(name): no close frame")
            return
        }
        #expect(frame[0] == 0x88)
        #expect(UInt16(frame[2]) << 8 | UInt16(frame[3]) == code.rawValue, "\(name)")
        #expect(actions[1] == .closeConnection)
        #expect(!handler.isOpen)
    }

    // MARK: Closing

    @Test(
        "a close from the peer is answered with the same code and reported",
        arguments: [
            1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014, 3000, 4404, 4999,
        ] as [UInt16])
    func peerCloseIsEchoed(code: UInt16) {
        var handler = Self.handler()
        let actions = handler.receive(maskedClientFrame(.close, Self.closePayload(code, Array("bye".utf8))))
        let closeCode = WebSocketCloseCode(rawValue: code)
        #expect(
            actions == [
                .send(WebSocketFrameEncoder.close(code: closeCode)), .closeConnection,
                .didClose(code: closeCode, reason: "bye"),
            ])
        #expect(handler.receive(maskedClientFrame(.text, [0x61])) == [])
    }

    @Test(
        "a close code not allowed on the wire fails with 1002",
        arguments: [
            0, 999, 1004, 1005, 1006, 1015, 1016, 1100, 2000, 2999, 5000, 65535,
        ] as [UInt16])
    func invalidCloseCode(code: UInt16) {
        var handler = Self.handler()
        #expect(
            handler.receive(maskedClientFrame(.close, Self.closePayload(code)))
                == Self.failure(.protocolError, "invalid close code"))
    }

    @Test("an empty close is answered with an empty close")
    func emptyClose() {
        var handler = Self.handler()
        #expect(
            handler.receive(maskedClientFrame(.close)) == [
                .send([0x88, 0x00]), .closeConnection, .didClose(code: nil, reason: ""),
            ])
    }

    @Test("after we close, no more data frames go out and the peer's reply closes the connection")
    func serverInitiatedClose() {
        var handler = Self.handler()
        #expect(
            handler.close(code: .goingAway, reason: "shutdown") == [
                .send(WebSocketFrameEncoder.close(code: .goingAway, reason: "shutdown"))
            ])
        #expect(handler.encode(text: "late") == [])
        #expect(handler.close(code: .normalClosure) == [])
        #expect(handler.receive(maskedClientFrame(.text, Array("ignored".utf8)) + maskedClientFrame(.ping)) == [])
        let actions = handler.receive(maskedClientFrame(.close, Self.closePayload(1001)))
        #expect(actions == [.closeConnection, .didClose(code: .goingAway, reason: "shutdown")])
    }

    @Test("an unanswered close is dropped after the close timeout")
    func closeTimeout() {
        var handler = Self.handler()
        _ = handler.close(code: .normalClosure)
        #expect(handler.tick(now: Self.start + .seconds(1)) == [])
        #expect(handler.tick(now: Self.start + .seconds(5)) == [])
        #expect(
            handler.tick(now: Self.start + .seconds(6)) == [
                .closeConnection, .didClose(code: .normalClosure, reason: ""),
            ])
        #expect(handler.tick(now: Self.start + .seconds(7)) == [])
    }

    @Test("a transport that ends is reported once")
    func transportClosed() {
        var handler = Self.handler()
        #expect(handler.transportClosed() == [.didClose(code: nil, reason: "")])
        #expect(handler.transportClosed() == [])
        #expect(handler.receive(maskedClientFrame(.text, [0x61])) == [])
    }

    // MARK: Timers

    @Test("a silent peer gets a keepalive ping every ping interval, and activity postpones it")
    func keepalivePing() {
        var handler = Self.handler()
        let ping = WebSocketAction.send(WebSocketFrameEncoder.frame(.ping, payload: []))
        #expect(handler.tick(now: Self.start + .seconds(19)) == [])
        #expect(handler.tick(now: Self.start + .seconds(20)) == [ping])
        #expect(handler.tick(now: Self.start + .seconds(21)) == [])
        _ = handler.receive(maskedClientFrame(.pong))
        #expect(handler.tick(now: Self.start + .seconds(22)) == [])
        #expect(handler.tick(now: Self.start + .seconds(41)) == [])
        #expect(handler.tick(now: Self.start + .seconds(42)) == [ping])
        #expect(handler.tick(now: Self.start + .seconds(62)) == [ping])
    }

    @Test("a peer silent past the dead-peer timeout is closed with 1001 ping timeout")
    func deadPeer() {
        var handler = Self.handler()
        _ = handler.tick(now: Self.start + .seconds(20))
        _ = handler.tick(now: Self.start + .seconds(40))
        #expect(handler.tick(now: Self.start + .seconds(59)) == [])
        #expect(handler.tick(now: Self.start + .seconds(60)) == Self.failure(.goingAway, "ping timeout"))
        #expect(handler.tick(now: Self.start + .seconds(80)) == [])
    }

    @Test("a compressed message left unfinished fails with 1008 after the message timeout although pings keep coming")
    func unfinishedMessageTimesOut() {
        var handler = Self.handler(deflate: PerMessageDeflateParameters())
        let firstFragment = maskedClientFrame(.text, Array(Self.rfcHello[..<3]), isFinal: false, isCompressed: true)
        #expect(handler.receive(firstFragment) == [])
        #expect(handler.tick(now: Self.start + .seconds(1)) == [])
        for second in 2...10 {
            #expect(handler.receive(maskedClientFrame(.ping)) == [.send([0x8A, 0x00])])
            #expect(handler.receive(maskedClientFrame(.pong)) == [])
            #expect(handler.tick(now: Self.start + .seconds(second)) == [])
        }
        #expect(handler.tick(now: Self.start + .seconds(11)) == Self.failure(.policyViolation, "message timeout"))
        #expect(handler.receive(maskedClientFrame(.continuation, Array(Self.rfcHello[3...]))) == [])
    }

    @Test("a message finished in time is delivered, and the next message gets a deadline of its own")
    func messageDeadlinePerMessage() {
        var handler = Self.handler()
        #expect(handler.receive(maskedClientFrame(.text, Array("Hel".utf8), isFinal: false)) == [])
        #expect(handler.tick(now: Self.start + .seconds(1)) == [])
        #expect(handler.tick(now: Self.start + .seconds(10)) == [])
        #expect(handler.receive(maskedClientFrame(.continuation, Array("lo".utf8))) == [.deliverText("Hello")])
        #expect(handler.tick(now: Self.start + .seconds(15)) == [])
        #expect(handler.receive(maskedClientFrame(.binary, [1], isFinal: false)) == [])
        #expect(handler.tick(now: Self.start + .seconds(16)) == [])
        #expect(handler.tick(now: Self.start + .seconds(25)) == [])
        #expect(handler.tick(now: Self.start + .seconds(26)) == Self.failure(.policyViolation, "message timeout"))
    }

    @Test("the message timeout is taken from the configuration")
    func configuredMessageTimeout() {
        var handler = WebSocketProtocolHandler(
            configuration: WebSocketConfiguration(messageTimeout: .seconds(2)), deflate: nil, now: Self.start)
        #expect(handler.receive(maskedClientFrame(.binary, [1], isFinal: false)) == [])
        #expect(handler.tick(now: Self.start + .seconds(1)) == [])
        #expect(handler.tick(now: Self.start + .milliseconds(2_999)) == [])
        #expect(handler.tick(now: Self.start + .seconds(3)) == Self.failure(.policyViolation, "message timeout"))
    }

    // MARK: Compression

    static let rfcHello: [UInt8] = [0xF2, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00]

    @Test("a compressed message is inflated before delivery, fragmented or not")
    func compressedMessage() {
        var handler = Self.handler(deflate: PerMessageDeflateParameters())
        #expect(handler.receive(maskedClientFrame(.text, Self.rfcHello, isCompressed: true)) == [.deliverText("Hello")])
        let first = maskedClientFrame(.text, Array(Self.rfcHello[..<3]), isFinal: false, isCompressed: true)
        let rest = maskedClientFrame(.continuation, Array(Self.rfcHello[3...]))
        #expect(
            handler.receive(first + maskedClientFrame(.ping) + rest) == [.send([0x8A, 0x00]), .deliverText("Hello")])
        #expect(handler.receive(maskedClientFrame(.binary, [1, 2])) == [.deliverBinary([1, 2])])
    }

    @Test("with client context takeover the window carries over between messages")
    func contextTakeover() {
        var handler = Self.handler(deflate: PerMessageDeflateParameters(clientNoContextTakeover: false))
        #expect(handler.receive(maskedClientFrame(.text, Self.rfcHello, isCompressed: true)) == [.deliverText("Hello")])
        #expect(
            handler.receive(maskedClientFrame(.text, [0xF2, 0x00, 0x11, 0x00, 0x00], isCompressed: true)) == [
                .deliverText("Hello")
            ])
    }

    @Test("a deflate bomb fails with 1009 at the message limit")
    func deflateBomb() throws {
        let bomb = try Deflater(windowBits: 15, memoryLevel: 8, level: 9).compress(
            [UInt8](repeating: 0x61, count: 5 << 20))
        var handler = Self.handler(maxMessageBytes: 1 << 20, deflate: PerMessageDeflateParameters())
        #expect(
            handler.receive(maskedClientFrame(.text, bomb, isCompressed: true))
                == Self.failure(.messageTooBig, "message too big"))
    }

    @Test("corrupt compressed data fails with 1002")
    func corruptCompressedData() {
        var handler = Self.handler(deflate: PerMessageDeflateParameters())
        let actions = handler.receive(maskedClientFrame(.binary, [0xFF, 0xFF, 0xFF], isCompressed: true))
        #expect(actions == Self.failure(.protocolError, "invalid compressed data"))
    }

    @Test("compressed text that inflates to invalid UTF-8 fails with 1007")
    func compressedInvalidUTF8() throws {
        let payload = try Deflater(windowBits: 15, memoryLevel: 8, level: 6).compress([0x61, 0xC0, 0x80])
        var handler = Self.handler(deflate: PerMessageDeflateParameters())
        #expect(
            handler.receive(maskedClientFrame(.text, payload, isCompressed: true))
                == Self.failure(.invalidPayload, "invalid UTF-8"))
    }

    @Test("outgoing messages are compressed when negotiated and large enough")
    func encodeCompresses() {
        let text = String(repeating: "odometer ", count: 50)
        let compressed = Self.handler(deflate: PerMessageDeflateParameters()).encode(text: text)
        #expect(compressed[0] == 0xC1)
        #expect(compressed.count < text.utf8.count / 4)
        var receiver = Self.handler(deflate: PerMessageDeflateParameters())
        #expect(receiver.receive(maskedCopy(ofServerFrame: compressed)) == [.deliverText(text)])
        #expect(
            Self.handler(deflate: PerMessageDeflateParameters()).encode(text: "short")
                == WebSocketFrameEncoder.frame(.text, payload: Array("short".utf8)))
        #expect(Self.handler().encode(text: text) == WebSocketFrameEncoder.frame(.text, payload: Array(text.utf8)))
        #expect(Self.handler().encode(binary: [1]) == [0x82, 0x01, 0x01])
    }

    @Test("random chunking of a mixed stream gives the same actions as one read")
    func randomChunking() {
        var generator = SplitMix64(seed: 42)
        let stream =
            maskedClientFrame(.text, Array("Hel".utf8), isFinal: false) + maskedClientFrame(.ping, [1])
            + maskedClientFrame(.continuation, Array("lo €".utf8))
            + maskedClientFrame(.text, Self.rfcHello, isCompressed: true)
            + maskedClientFrame(.binary, [UInt8](repeating: 3, count: 300))
            + maskedClientFrame(.close, Self.closePayload(1000))
        var whole = Self.handler(deflate: PerMessageDeflateParameters())
        let expected = whole.receive(stream)
        #expect(expected.count == 7)
        for _ in 0..<50 {
            var handler = Self.handler(deflate: PerMessageDeflateParameters())
            var actions: [WebSocketAction] = []
            var index = 0
            while index < stream.count {
                let end = min(stream.count, index + Int.random(in: 1...40, using: &generator))
                actions += handler.receive(stream[index..<end])
                index = end
            }
            #expect(actions == expected)
        }
    }
}
