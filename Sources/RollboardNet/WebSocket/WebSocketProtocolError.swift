/// A violation by the peer that fails the connection, with the close code to send (RFC 6455 section 7.4.1).
struct WebSocketProtocolError: Error, Equatable {
    var closeCode: WebSocketCloseCode
    var reason: String

    init(_ closeCode: WebSocketCloseCode, _ reason: String) {
        self.closeCode = closeCode
        self.reason = reason
    }

    static let unmaskedFrame = Self(.protocolError, "client frames must be masked")
    static let reservedBits = Self(.protocolError, "reserved bits set")
    static let unknownOpcode = Self(.protocolError, "unknown opcode")
    static let fragmentedControlFrame = Self(.protocolError, "control frames must not be fragmented")
    static let controlFrameTooLong = Self(.protocolError, "control frame payload over 125 bytes")
    static let invalidLength = Self(.protocolError, "payload length has the most significant bit set")
    static let unexpectedContinuation = Self(.protocolError, "continuation frame without a message")
    static let expectedContinuation = Self(.protocolError, "new message before the previous one finished")
    static let frameTooBig = Self(.messageTooBig, "frame too big")
    static let messageTooBig = Self(.messageTooBig, "message too big")
    static let invalidUTF8 = Self(.invalidPayload, "invalid UTF-8")
    static let closePayloadTooShort = Self(.protocolError, "close payload of one byte")
    static let invalidCloseCode = Self(.protocolError, "invalid close code")
    static let invalidCompressedData = Self(.protocolError, "invalid compressed data")
    static let compressorFailure = Self(.internalError, "compression failed")
    static let messageTimeout = Self(.policyViolation, "message timeout")
}
