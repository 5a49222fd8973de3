/// Splits the client's byte stream into frames (RFC 6455 section 5), enforcing the framing rules.
///
/// Pure: fed bytes, it returns events or throws the violation with its close code. Data frame payloads
/// stream out as they arrive (unmasked in place), so a message is never buffered twice and UTF-8 or
/// size problems show before a frame completes; control frames come out whole (at most 125 bytes).
struct WebSocketFrameDecoder {
    /// The header of a data frame (text, binary or continuation).
    struct DataFrameHeader: Equatable {
        var opcode: WebSocketOpcode
        var isFinal: Bool
        /// RSV1: the message is compressed (permessage-deflate, first frame only).
        var isCompressed: Bool
        var length: Int
    }

    enum Event: Equatable {
        /// A data frame begins; `payload` events and then `dataFrameEnd` follow.
        case dataFrameStart(DataFrameHeader)
        /// Unmasked payload bytes of the current data frame.
        case payload(ArraySlice<UInt8>)
        case dataFrameEnd(isFinal: Bool)
        /// A complete control frame (close, ping or pong), unmasked.
        case control(WebSocketOpcode, payload: [UInt8])
    }

    private enum State {
        case header
        case dataPayload(remaining: Int, isFinal: Bool)
        case controlPayload(WebSocketOpcode, remaining: Int)
        case failed
    }

    private let maxFrameBytes: Int
    private let maxMessageBytes: Int
    private let allowsCompression: Bool
    private var state = State.header
    private var header: [UInt8] = []
    private var maskingKey: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
    private var maskOffset = 0
    private var controlPayload: [UInt8] = []
    private var isInMessage = false
    private var messageBytes = 0

    /// - Parameters:
    ///   - maxFrameBytes: larger frames fail with 1009.
    ///   - maxMessageBytes: messages whose frames add up to more fail with 1009.
    ///   - allowsCompression: whether permessage-deflate was negotiated, making RSV1 meaningful.
    init(maxFrameBytes: Int, maxMessageBytes: Int, allowsCompression: Bool) {
        self.maxFrameBytes = maxFrameBytes
        self.maxMessageBytes = maxMessageBytes
        self.allowsCompression = allowsCompression
    }

    /// The next event from `input`, consuming the bytes it used; `nil` when `input` is used up
    /// mid-frame (feed more bytes later). After an error the decoder returns `nil` forever.
    mutating func next(from input: inout ArraySlice<UInt8>) throws(WebSocketProtocolError) -> Event? {
        do {
            return try decodeNext(from: &input)
        } catch {
            state = .failed
            throw error
        }
    }

    private mutating func decodeNext(from input: inout ArraySlice<UInt8>) throws(WebSocketProtocolError) -> Event? {
        while true {
            switch state {
            case .failed:
                return nil
            case .header:
                guard let event = try readHeader(from: &input) else {
                    if case .header = state { return nil }
                    continue
                }
                return event
            case .dataPayload(let remaining, let isFinal):
                if remaining == 0 {
                    state = .header
                    return .dataFrameEnd(isFinal: isFinal)
                }
                guard !input.isEmpty else { return nil }
                let count = min(remaining, input.count)
                let end = input.startIndex + count
                let key = maskingKey
                input.withUnsafeMutableBytes { buffer in
                    WebSocketMasking.apply(
                        key: key, offset: &maskOffset, to: UnsafeMutableRawBufferPointer(rebasing: buffer[..<count]))
                }
                let chunk = input[..<end]
                input = input[end...]
                state = .dataPayload(remaining: remaining - count, isFinal: isFinal)
                return .payload(chunk)
            case .controlPayload(let opcode, let remaining):
                guard remaining == 0 || !input.isEmpty else { return nil }
                let count = min(remaining, input.count)
                controlPayload.append(contentsOf: input.prefix(count))
                input = input.dropFirst(count)
                guard remaining == count else {
                    state = .controlPayload(opcode, remaining: remaining - count)
                    return nil
                }
                var payload: [UInt8] = []
                swap(&payload, &controlPayload)
                let key = maskingKey
                payload.withUnsafeMutableBytes { WebSocketMasking.apply(key: key, offset: &maskOffset, to: $0) }
                state = .header
                return .control(opcode, payload: payload)
            }
        }
    }

    /// Reads header bytes; returns the data frame start once the header is complete, or `nil` when more
    /// bytes are needed or a control frame's payload comes next (the state says which).
    private mutating func readHeader(from input: inout ArraySlice<UInt8>) throws(WebSocketProtocolError) -> Event? {
        while header.count < 2 {
            guard let byte = input.popFirst() else { return nil }
            header.append(byte)
        }
        let first = header[0]
        let second = header[1]
        guard let opcode = WebSocketOpcode(rawValue: first & 0x0F) else { throw .unknownOpcode }
        let isFinal = first & 0x80 != 0
        let isCompressed = first & 0x40 != 0
        if first & 0x30 != 0 { throw .reservedBits }
        if isCompressed && !(allowsCompression && (opcode == .text || opcode == .binary)) { throw .reservedBits }
        let shortLength = Int(second & 0x7F)
        if opcode.isControl {
            if !isFinal { throw .fragmentedControlFrame }
            if shortLength > 125 { throw .controlFrameTooLong }
        } else if opcode == .continuation {
            if !isInMessage { throw .unexpectedContinuation }
        } else if isInMessage {
            throw .expectedContinuation
        }
        if second & 0x80 == 0 { throw .unmaskedFrame }

        let lengthBytes = shortLength == 126 ? 2 : (shortLength == 127 ? 8 : 0)
        let headerLength = 2 + lengthBytes + 4
        while header.count < headerLength {
            guard let byte = input.popFirst() else { return nil }
            header.append(byte)
        }
        var length = UInt64(shortLength)
        if lengthBytes > 0 {
            length = header[2..<(2 + lengthBytes)].reduce(0) { $0 << 8 | UInt64($1) }
            if length & (1 << 63) != 0 { throw .invalidLength }
        }
        if length > UInt64(maxFrameBytes) { throw .frameTooBig }
        let frameLength = Int(length)
        let keyStart = 2 + lengthBytes
        maskingKey = (header[keyStart], header[keyStart + 1], header[keyStart + 2], header[keyStart + 3])
        maskOffset = 0
        header.removeAll(keepingCapacity: true)

        if opcode.isControl {
            state = .controlPayload(opcode, remaining: frameLength)
            return nil
        }
        if messageBytes + frameLength > maxMessageBytes { throw .messageTooBig }
        messageBytes = isFinal ? 0 : messageBytes + frameLength
        isInMessage = !isFinal
        state = .dataPayload(remaining: frameLength, isFinal: isFinal)
        return .dataFrameStart(
            DataFrameHeader(opcode: opcode, isFinal: isFinal, isCompressed: isCompressed, length: frameLength))
    }
}
