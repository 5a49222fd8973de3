import Testing

@testable import RollboardNet

/// A masked client frame, as a browser would send it.
func maskedClientFrame(
    _ opcode: WebSocketOpcode,
    _ payload: [UInt8] = [],
    isFinal: Bool = true,
    isCompressed: Bool = false
) -> [UInt8] {
    WebSocketFrameEncoder.frame(
        opcode, payload: payload, isFinal: isFinal, isCompressed: isCompressed, maskingKey: [0x37, 0xFA, 0x21, 0x3D])
}

/// A raw frame head: the first two bytes as given, then a masking key of zeros.
func rawClientFrame(_ first: UInt8, _ second: UInt8, _ rest: [UInt8] = []) -> [UInt8] {
    [first, second] + rest
}

@Suite struct WebSocketFrameDecoderTests {
    /// What the decoder produced: whole data frames (payload joined), control frames, or the error.
    enum Decoded: Equatable {
        case data(WebSocketOpcode, [UInt8], isFinal: Bool, isCompressed: Bool)
        case control(WebSocketOpcode, [UInt8])
        case error(WebSocketProtocolError)
    }

    static func decode(
        _ chunks: [[UInt8]],
        maxFrameBytes: Int = 1 << 20,
        maxMessageBytes: Int = 1 << 20,
        allowsCompression: Bool = false
    ) -> [Decoded] {
        var decoder = WebSocketFrameDecoder(
            maxFrameBytes: maxFrameBytes, maxMessageBytes: maxMessageBytes, allowsCompression: allowsCompression)
        var results: [Decoded] = []
        var current: WebSocketFrameDecoder.DataFrameHeader?
        var payload: [UInt8] = []
        for chunk in chunks {
            var input = chunk[...]
            do {
                while let event = try decoder.next(from: &input) {
                    switch event {
                    case .dataFrameStart(let header):
                        current = header
                        payload = []
                    case .payload(let bytes):
                        payload += bytes
                    case .dataFrameEnd(let isFinal):
                        results.append(
                            .data(current!.opcode, payload, isFinal: isFinal, isCompressed: current!.isCompressed))
                    case .control(let opcode, let bytes):
                        results.append(.control(opcode, bytes))
                    }
                }
            } catch {
                results.append(.error(error))
                return results
            }
        }
        return results
    }

    @Test("a masked text frame decodes to its payload")
    func decodesMaskedText() {
        #expect(
            Self.decode([maskedClientFrame(.text, Array("Hello".utf8))]) == [
                .data(.text, Array("Hello".utf8), isFinal: true, isCompressed: false)
            ])
    }

    @Test("RFC 6455's masked Hello example decodes")
    func decodesRFCExample() {
        let bytes: [UInt8] = [0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58]
        #expect(Self.decode([bytes]) == [.data(.text, Array("Hello".utf8), isFinal: true, isCompressed: false)])
    }

    @Test("frames decode the same whatever the chunking", arguments: [1, 2, 3, 7, 13, 64])
    func chunkingDoesNotMatter(chunkSize: Int) {
        let stream =
            maskedClientFrame(.text, Array(repeating: 0x61, count: 200), isFinal: false)
            + maskedClientFrame(.ping, [1, 2, 3])
            + maskedClientFrame(.continuation, Array(repeating: 0x62, count: 70_000))
            + maskedClientFrame(.binary, [])
        let chunks = stride(from: 0, to: stream.count, by: chunkSize).map {
            Array(stream[$0..<min($0 + chunkSize, stream.count)])
        }
        let expected: [Decoded] = [
            .data(.text, Array(repeating: 0x61, count: 200), isFinal: false, isCompressed: false),
            .control(.ping, [1, 2, 3]),
            .data(.continuation, Array(repeating: 0x62, count: 70_000), isFinal: true, isCompressed: false),
            .data(.binary, [], isFinal: true, isCompressed: false),
        ]
        #expect(Self.decode(chunks) == expected)
    }

    @Test("control frames may interleave a fragmented message")
    func interleavedControlFrames() {
        let decoded = Self.decode([
            maskedClientFrame(.text, Array("Hel".utf8), isFinal: false),
            maskedClientFrame(.ping, Array("p".utf8)),
            maskedClientFrame(.continuation, Array("lo".utf8), isFinal: false),
            maskedClientFrame(.pong, []),
            maskedClientFrame(.continuation, Array("!".utf8)),
        ])
        #expect(
            decoded == [
                .data(.text, Array("Hel".utf8), isFinal: false, isCompressed: false),
                .control(.ping, Array("p".utf8)),
                .data(.continuation, Array("lo".utf8), isFinal: false, isCompressed: false),
                .control(.pong, []),
                .data(.continuation, Array("!".utf8), isFinal: true, isCompressed: false),
            ])
    }

    static let key: [UInt8] = [0, 0, 0, 0]

    static let violations: [(String, [[UInt8]], Bool, WebSocketProtocolError)] = [
        ("unmasked frame", [[0x81, 0x05] + Array("Hello".utf8)], false, .unmaskedFrame),
        ("RSV1 without deflate", [rawClientFrame(0xC1, 0x80, key)], false, .reservedBits),
        ("RSV2", [rawClientFrame(0xA1, 0x80, key)], true, .reservedBits),
        ("RSV3", [rawClientFrame(0x91, 0x80, key)], true, .reservedBits),
        (
            "RSV1 on a continuation", [rawClientFrame(0x41, 0x80, key), rawClientFrame(0xC0, 0x80, key)], true,
            .reservedBits
        ),
        ("RSV1 on a ping", [rawClientFrame(0xC9, 0x80, key)], true, .reservedBits),
        ("opcode 3", [rawClientFrame(0x83, 0x80, key)], false, .unknownOpcode),
        ("opcode 7", [rawClientFrame(0x87, 0x80, key)], false, .unknownOpcode),
        ("opcode B", [rawClientFrame(0x8B, 0x80, key)], false, .unknownOpcode),
        ("opcode F", [rawClientFrame(0x8F, 0x80, key)], false, .unknownOpcode),
        ("fragmented ping", [rawClientFrame(0x09, 0x80, key)], false, .fragmentedControlFrame),
        ("fragmented close", [rawClientFrame(0x08, 0x80, key)], false, .fragmentedControlFrame),
        ("ping of 126 bytes", [rawClientFrame(0x89, 0xFE, [0x00, 0x7E] + key)], false, .controlFrameTooLong),
        (
            "64-bit length with the top bit", [rawClientFrame(0x82, 0xFF, [0x80, 0, 0, 0, 0, 0, 0, 0] + key)], false,
            .invalidLength
        ),
        ("continuation first", [rawClientFrame(0x80, 0x80, key)], false, .unexpectedContinuation),
        (
            "text inside a fragmented message", [rawClientFrame(0x01, 0x80, key), rawClientFrame(0x81, 0x80, key)],
            false, .expectedContinuation
        ),
        (
            "binary inside a fragmented message", [rawClientFrame(0x02, 0x80, key), rawClientFrame(0x82, 0x80, key)],
            false, .expectedContinuation
        ),
        ("frame over the limit", [rawClientFrame(0x82, 0xFE, [0x00, 101] + key)], false, .frameTooBig),
        (
            "huge 64-bit frame", [rawClientFrame(0x82, 0xFF, [0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF] + key)],
            false, .frameTooBig
        ),
        (
            "message over the limit",
            [
                maskedClientFrame(.binary, Array(repeating: 0, count: 80), isFinal: false),
                rawClientFrame(0x80, 0xD0, key),
            ], false, .messageTooBig
        ),
    ]

    @Test("each framing violation fails with its close code", arguments: violations)
    func violationFails(name: String, chunks: [[UInt8]], allowsCompression: Bool, expected: WebSocketProtocolError) {
        let decoded = Self.decode(
            chunks, maxFrameBytes: 100, maxMessageBytes: 150, allowsCompression: allowsCompression)
        #expect(decoded.last == .error(expected), "\(name)")
    }

    @Test("violations map to the RFC's close codes")
    func closeCodes() {
        #expect(WebSocketProtocolError.unmaskedFrame.closeCode.rawValue == 1002)
        #expect(WebSocketProtocolError.frameTooBig.closeCode.rawValue == 1009)
        #expect(WebSocketProtocolError.messageTooBig.closeCode.rawValue == 1009)
        #expect(WebSocketProtocolError.invalidUTF8.closeCode.rawValue == 1007)
    }

    @Test("a frame that breaks the rules fails after its first two bytes, before its length arrives")
    func failsEarly() {
        #expect(Self.decode([[0x81, 0x05]]) == [.error(.unmaskedFrame)])
    }

    @Test("RSV1 marks the first frame of a compressed message when deflate is negotiated")
    func compressedFirstFrame() {
        let decoded = Self.decode(
            [maskedClientFrame(.text, [1], isFinal: false, isCompressed: true), maskedClientFrame(.continuation, [2])],
            allowsCompression: true)
        #expect(
            decoded == [
                .data(.text, [1], isFinal: false, isCompressed: true),
                .data(.continuation, [2], isFinal: true, isCompressed: false),
            ])
    }

    @Test("after an error the decoder yields nothing more")
    func staysFailed() throws {
        var decoder = WebSocketFrameDecoder(maxFrameBytes: 10, maxMessageBytes: 10, allowsCompression: false)
        var input: ArraySlice<UInt8> = [0x83, 0x80]
        #expect(throws: WebSocketProtocolError.unknownOpcode) { try decoder.next(from: &input) }
        var more = maskedClientFrame(.text, [0x61])[...]
        #expect(try decoder.next(from: &more) == nil)
    }

    @Test("masking with any offset matches the byte-by-byte definition", arguments: [0, 1, 2, 3])
    func maskingMatchesDefinition(offset: Int) {
        let key: [UInt8] = [0xA1, 0xB2, 0xC3, 0xD4]
        let payload = (0..<37).map { UInt8($0 * 7 & 0xFF) }
        var masked = payload
        var running = offset
        masked.withUnsafeMutableBytes { WebSocketMasking.apply(key: key, offset: &running, to: $0) }
        let expected = payload.enumerated().map { $0.element ^ key[($0.offset + offset) % 4] }
        #expect(masked == expected)
        #expect(running == (offset + 37) % 4)
    }
}
