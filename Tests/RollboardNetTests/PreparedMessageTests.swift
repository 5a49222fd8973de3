import Testing

@testable import RollboardNet

/// The same frame as a client would send it: mask bit set, a masking key, payload masked.
func maskedCopy(ofServerFrame frame: [UInt8]) -> [UInt8] {
    let lengthBytes = frame[1] == 126 ? 2 : (frame[1] == 127 ? 8 : 0)
    let headerEnd = 2 + lengthBytes
    let key: [UInt8] = [0x12, 0x34, 0x56, 0x78]
    var masked = [frame[0], frame[1] | 0x80] + frame[2..<headerEnd] + key
    let start = masked.count
    masked += frame[headerEnd...]
    var offset = 0
    masked[start...].withUnsafeMutableBytes { WebSocketMasking.apply(key: key, offset: &offset, to: $0) }
    return masked
}

@Suite struct PreparedMessageTests {
    static let text = String(repeating: "{\"tile\":\"revenue\",\"digits\":[1,2,3,4,5,6]} ", count: 20)

    static func receive(_ frame: [UInt8], deflate: PerMessageDeflateParameters?) -> [WebSocketAction] {
        var handler = WebSocketProtocolHandler(
            configuration: WebSocketConfiguration(), deflate: deflate, now: ContinuousClock.now)
        return handler.receive(maskedCopy(ofServerFrame: frame))
    }

    @Test("the plain frame decodes to the same text")
    func plainFrameDecodes() {
        let message = PreparedMessage(text: Self.text)
        #expect(message.plainFrame[0] == 0x81)
        #expect(Self.receive(message.plainFrame, deflate: nil) == [.deliverText(Self.text)])
    }

    @Test("the compressed frame is smaller, has RSV1 and decodes to the same text")
    func compressedFrameDecodes() throws {
        let message = PreparedMessage(text: Self.text)
        let compressed = try #require(message.compressedFrame)
        #expect(compressed.count < message.plainFrame.count / 4)
        #expect(compressed[0] == 0xC1)
        #expect(Self.receive(compressed, deflate: PerMessageDeflateParameters()) == [.deliverText(Self.text)])
    }

    @Test("the compressed payload inflates with zlib to the text")
    func compressedPayloadInflates() throws {
        let message = PreparedMessage(text: Self.text)
        let frame = try #require(message.compressedFrame)
        let payload = frame[(frame[1] == 126 ? 4 : 2)...]
        let inflater = try Inflater(windowBits: 15)
        var output: [UInt8] = []
        try inflater.inflate(payload, into: &output, limit: 1 << 20)
        try inflater.finishMessage(into: &output, limit: 1 << 20)
        #expect(output == Array(Self.text.utf8))
    }

    @Test("binary messages are prepared too")
    func binary() {
        let bytes = [UInt8](repeating: 9, count: 500)
        let message = PreparedMessage(binary: bytes)
        #expect(Self.receive(message.plainFrame, deflate: nil) == [.deliverBinary(bytes)])
        #expect(
            message.compressedFrame.map { Self.receive($0, deflate: PerMessageDeflateParameters()) } == [
                .deliverBinary(bytes)
            ])
    }

    @Test("messages under the minimum size, or without deflate, have no compressed form")
    func noCompressedForm() {
        #expect(PreparedMessage(text: "hi").compressedFrame == nil)
        #expect(PreparedMessage(text: Self.text, deflate: nil).compressedFrame == nil)
    }

    @Test(
        "a connection gets the compressed frame only when its negotiated window is large enough",
        arguments: [
            (nil, false), (15, true), (12, true), (11, false), (9, false),
        ] as [(Int?, Bool)])
    func frameChoice(serverWindowBits: Int?, expectsCompressed: Bool) {
        let message = PreparedMessage(text: Self.text, deflate: PerMessageDeflateConfiguration(serverMaxWindowBits: 12))
        let parameters = serverWindowBits.map { PerMessageDeflateParameters(serverMaxWindowBits: $0) }
        #expect((message.frame(for: parameters) == message.compressedFrame) == expectsCompressed)
    }

    @Test("a message compressed with a 9-bit window suits a peer that asked for 8")
    func eightBitPeer() {
        let message = PreparedMessage(text: Self.text, deflate: PerMessageDeflateConfiguration(serverMaxWindowBits: 9))
        #expect(message.frame(for: PerMessageDeflateParameters(serverMaxWindowBits: 8)) == message.compressedFrame)
    }
}
