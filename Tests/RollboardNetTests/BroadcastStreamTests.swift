import Testing

@testable import RollboardNet

@Suite("Broadcast stream")
struct BroadcastStreamTests {
    /// Frames like a rolling dashboard's: the same eight tiles every tick, their last four columns turning, each one a
    /// tenth as fast as the one to its right.
    static let frames: [String] = (1...60).map { tick in
        let tiles = (1...8).map { tile in
            let columns = [1, 10, 100, 1000].reversed().map { speed in String((tick * 2_700 * tile / speed) % 10_000) }
            return "\"k\(tile)\":[4,\(columns.joined(separator: ","))]"
        }
        return "{\"f\":\(tick),\"t\":{\(tiles.joined(separator: ","))}}"
    }

    /// What a browser that keeps the server's context negotiated (window 13, as Rollboard announces it).
    static let takeover = PerMessageDeflateParameters(
        serverNoContextTakeover: false, clientNoContextTakeover: false, serverMaxWindowBits: 13, clientMaxWindowBits: 13)

    /// A decoder that keeps its inflate window between messages, as a browser does with context takeover.
    struct Screen {
        var handler = WebSocketProtocolHandler(
            configuration: WebSocketConfiguration(),
            deflate: PerMessageDeflateParameters(clientNoContextTakeover: false, clientMaxWindowBits: 13),
            now: ContinuousClock.now)

        mutating func receive(_ message: PreparedMessage) -> [WebSocketAction] {
            let frame = message.frame(for: BroadcastStreamTests.takeover)
            return frame.isEmpty ? [] : handler.receive(maskedCopy(ofServerFrame: frame))
        }
    }

    @Test("a screen that keeps the stream's context decodes every frame, and later frames cost a fraction of a fresh one")
    func takeoverFramesDecode() {
        let stream = BroadcastStream()
        var screen = Screen()
        var carried = 0
        var fresh = 0
        for text in Self.frames {
            let message = stream.message(text: text)
            #expect(screen.receive(message) == [.deliverText(text)])
            carried += message.sharedContextFrame?.count ?? 0
            fresh += message.compressedFrame?.count ?? message.plainFrame.count
        }
        #expect(carried * 3 < fresh * 2, "with the stream's context \(carried) bytes, fresh \(fresh) bytes")
    }

    @Test("a screen that joins part-way decodes the next frames once it has the primer, and not without it")
    func primerFillsTheWindow() throws {
        let stream = BroadcastStream()
        for text in Self.frames.prefix(30) { _ = stream.message(text: text) }
        let primer = try #require(stream.primer())
        var joined = Screen()
        var unprimed = Screen()
        guard case .deliverBinary(let window)? = joined.receive(primer).first else {
            Issue.record("the primer did not decode")
            return
        }
        #expect(window.count == stream.historyByteCount)
        #expect(String(decoding: window, as: UTF8.self).hasSuffix(Self.frames[29]))
        var unprimedDecoded = 0
        for text in Self.frames.dropFirst(30) {
            let message = stream.message(text: text)
            #expect(joined.receive(message) == [.deliverText(text)])
            if unprimed.receive(message) == [.deliverText(text)] { unprimedDecoded += 1 }
        }
        #expect(unprimedDecoded < 30, "a screen without the primer cannot follow the stream")
    }

    @Test("a screen that asked for server_no_context_takeover gets each frame compressed alone, and no primer")
    func freshFramesForScreensWithoutTakeover() throws {
        let stream = BroadcastStream()
        let parameters = PerMessageDeflateParameters(serverMaxWindowBits: 13)
        for text in Self.frames.prefix(5) {
            let message = stream.message(text: text)
            #expect(message.frame(for: parameters) == message.compressedFrame ?? message.plainFrame)
            #expect(PreparedMessageTests.receive(message.frame(for: parameters), deflate: parameters) == [.deliverText(text)])
        }
        #expect(try #require(stream.primer()).frame(for: parameters).isEmpty)
        #expect(try #require(stream.primer()).frame(for: nil).isEmpty)
    }

    @Test("a screen whose window is smaller than the stream's gets fresh frames")
    func smallWindowsGetFreshFrames() {
        let stream = BroadcastStream()
        let message = stream.message(text: Self.frames[0])
        let small = PerMessageDeflateParameters(serverNoContextTakeover: false, serverMaxWindowBits: 10)
        #expect(message.frame(for: small) == message.plainFrame)
    }

    @Test("the handshake leaves the server's context alone only when allowed and not asked otherwise", arguments: [
        (false, "permessage-deflate; client_max_window_bits", true),
        (true, "permessage-deflate; client_max_window_bits", false),
        (true, "permessage-deflate; server_no_context_takeover", true),
    ])
    func negotiation(allowed: Bool, offer: String, expectsNoTakeover: Bool) throws {
        let configuration = PerMessageDeflateConfiguration(allowsServerContextTakeover: allowed)
        let parameters = try #require(PerMessageDeflateParameters.negotiate(offers: [offer], configuration: configuration))
        #expect(parameters.serverNoContextTakeover == expectsNoTakeover)
        #expect(parameters.responseHeaderValue.contains("server_no_context_takeover") == expectsNoTakeover)
    }
}
