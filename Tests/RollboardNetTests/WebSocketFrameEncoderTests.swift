import Testing

@testable import RollboardNet

@Suite struct WebSocketFrameEncoderTests {
    @Test(
        "server frames are unmasked with the shortest length encoding",
        arguments: [
            (0, [0x81, 0x00]),
            (125, [0x81, 0x7D]),
            (126, [0x81, 0x7E, 0x00, 0x7E]),
            (65535, [0x81, 0x7E, 0xFF, 0xFF]),
            (65536, [0x81, 0x7F, 0, 0, 0, 0, 0, 1, 0, 0]),
        ])
    func lengthEncoding(length: Int, head: [UInt8]) {
        let frame = WebSocketFrameEncoder.frame(.text, payload: [UInt8](repeating: 0x61, count: length))
        #expect(Array(frame.prefix(head.count)) == head)
        #expect(frame.count == head.count + length)
    }

    @Test("the compressed flag sets RSV1 and a non-final frame clears FIN")
    func flags() {
        #expect(WebSocketFrameEncoder.frame(.binary, payload: [], isCompressed: true)[0] == 0xC2)
        #expect(WebSocketFrameEncoder.frame(.text, payload: [], isFinal: false)[0] == 0x01)
    }

    @Test("a close frame carries the code and a reason cut at a scalar boundary within 123 bytes")
    func closeFrame() {
        let frame = WebSocketFrameEncoder.close(code: .goingAway, reason: String(repeating: "é", count: 100))
        #expect(frame[0] == 0x88)
        #expect(frame[1] == 2 + 122)
        #expect(frame[2] == 0x03 && frame[3] == 0xE9)
        #expect(String(validating: frame[4...], as: UTF8.self) == String(repeating: "é", count: 61))
        #expect(WebSocketFrameEncoder.close(code: nil) == [0x88, 0x00])
    }
}
