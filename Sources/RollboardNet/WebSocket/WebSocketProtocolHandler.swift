/// The WebSocket protocol for one server-side connection (RFC 6455 with RFC 7692), without I/O.
///
/// The connection feeds it received bytes, timer ticks and close requests; it returns the
/// ``WebSocketAction``s to carry out, in order. Time is injected through ``tick(now:)``, so the
/// keepalive ping, dead-peer, message and close timeouts are exact to the tick period (tick about once
/// a second). Confined to its connection's queue.
struct WebSocketProtocolHandler {
    private enum State {
        case open
        /// We sent a close frame; `since` is the first tick after that.
        case closeSent(code: WebSocketCloseCode, reason: String, since: ContinuousClock.Instant?)
        case closed
    }

    /// The negotiated compression, `nil` for an uncompressed connection.
    let deflate: PerMessageDeflateParameters?
    private let configuration: WebSocketConfiguration
    private var state = State.open
    private var decoder: WebSocketFrameDecoder

    /// The message being reassembled: its opcode (text or binary), whether it is compressed, its bytes so far.
    private var messageOpcode = WebSocketOpcode.binary
    private var messageIsCompressed = false
    private var message: [UInt8] = []
    private var utf8 = UTF8Validator()
    /// Whether a data message has started and its final frame has not arrived yet.
    private var isMessageInProgress = false
    /// The first tick after the message in progress started; its deadline counts from here.
    private var messageStartedAt: ContinuousClock.Instant?
    /// Created for the first compressed message; kept between messages only when the client keeps its
    /// context (without `client_no_context_takeover`).
    private var inflater: Inflater?

    private var lastActivity: ContinuousClock.Instant
    private var lastPing: ContinuousClock.Instant?
    private var receivedSinceTick = false

    /// - Parameters:
    ///   - configuration: limits and timers.
    ///   - deflate: the parameters from ``WebSocketHandshake/deflate``, or `nil`.
    ///   - now: the time the connection opened.
    init(
        configuration: WebSocketConfiguration,
        deflate: PerMessageDeflateParameters?,
        now: ContinuousClock.Instant
    ) {
        self.configuration = configuration
        self.deflate = deflate
        self.decoder = WebSocketFrameDecoder(
            maxFrameBytes: configuration.effectiveMaxFrameBytes,
            maxMessageBytes: configuration.maxMessageBytes,
            allowsCompression: deflate != nil)
        self.lastActivity = now
    }

    /// Whether data messages may still be sent (no close frame sent or received yet).
    var isOpen: Bool {
        if case .open = state { return true }
        return false
    }

    // MARK: Receiving

    /// Handles bytes from the peer: delivers complete messages, answers pings and close frames, and
    /// fails the connection with the right close code on any violation.
    mutating func receive(_ bytes: some Collection<UInt8>) -> [WebSocketAction] {
        if case .closed = state { return [] }
        receivedSinceTick = true
        var input = ArraySlice(Array(bytes))
        var actions: [WebSocketAction] = []
        do throws(WebSocketProtocolError) {
            while let event = try decoder.next(from: &input) {
                try handle(event, actions: &actions)
                if case .closed = state { break }
            }
        } catch {
            fail(error, actions: &actions)
        }
        return actions
    }

    private mutating func handle(
        _ event: WebSocketFrameDecoder.Event,
        actions: inout [WebSocketAction]
    ) throws(WebSocketProtocolError) {
        switch event {
        case .dataFrameStart(let header):
            if header.opcode != .continuation {
                messageOpcode = header.opcode
                messageIsCompressed = header.isCompressed
                utf8 = UTF8Validator()
                isMessageInProgress = true
                messageStartedAt = nil
            }
        case .payload(let chunk):
            try appendToMessage(chunk)
        case .dataFrameEnd(let isFinal):
            if isFinal { try finishMessage(actions: &actions) }
        case .control(let opcode, let payload):
            try handleControl(opcode, payload: payload, actions: &actions)
        }
    }

    private mutating func appendToMessage(_ chunk: ArraySlice<UInt8>) throws(WebSocketProtocolError) {
        let start = message.count
        if messageIsCompressed {
            try inflate(chunk)
        } else {
            message.append(contentsOf: chunk)
        }
        try validateText(from: start)
    }

    private mutating func finishMessage(actions: inout [WebSocketAction]) throws(WebSocketProtocolError) {
        isMessageInProgress = false
        messageStartedAt = nil
        if messageIsCompressed {
            let start = message.count
            try inflate(nil)
            try validateText(from: start)
            if deflate?.clientNoContextTakeover ?? true { inflater = nil }
        }
        var complete: [UInt8] = []
        swap(&complete, &message)
        guard case .open = state else { return }
        if messageOpcode == .text {
            guard utf8.isComplete else { throw .invalidUTF8 }
            actions.append(.deliverText(String(decoding: complete, as: UTF8.self)))
        } else {
            actions.append(.deliverBinary(complete))
        }
    }

    /// Inflates `chunk` into the message, or the end-of-message tail when `chunk` is `nil`.
    private mutating func inflate(_ chunk: ArraySlice<UInt8>?) throws(WebSocketProtocolError) {
        do throws(ZlibError) {
            if inflater == nil {
                inflater = try Inflater(windowBits: deflate?.clientMaxWindowBits ?? 15)
            }
            if let chunk {
                try inflater!.inflate(chunk, into: &message, limit: configuration.maxMessageBytes)
            } else {
                try inflater!.finishMessage(into: &message, limit: configuration.maxMessageBytes)
            }
        } catch {
            switch error {
            case .outputLimitExceeded: throw .messageTooBig
            case .corruptData: throw .invalidCompressedData
            default: throw .compressorFailure
            }
        }
    }

    private mutating func validateText(from start: Int) throws(WebSocketProtocolError) {
        guard messageOpcode == .text, start < message.count else { return }
        let valid = message.withUnsafeBytes { utf8.validate(UnsafeRawBufferPointer(rebasing: $0[start...])) }
        if !valid { throw .invalidUTF8 }
    }

    private mutating func handleControl(
        _ opcode: WebSocketOpcode,
        payload: [UInt8],
        actions: inout [WebSocketAction]
    ) throws(WebSocketProtocolError) {
        switch opcode {
        case .ping:
            if case .open = state { actions.append(.send(WebSocketFrameEncoder.frame(.pong, payload: payload))) }
        case .close:
            let (code, reason) = try Self.parseClose(payload)
            closeNow(answering: WebSocketFrameEncoder.close(code: code), code: code, reason: reason, actions: &actions)
        default:
            break  // Unsolicited pongs are allowed and ignored (RFC 6455 section 5.5.3).
        }
    }

    /// The code and reason of a close frame payload (RFC 6455 section 5.5.1).
    private static func parseClose(_ payload: [UInt8]) throws(WebSocketProtocolError) -> (WebSocketCloseCode?, String) {
        guard !payload.isEmpty else { return (nil, "") }
        guard payload.count >= 2 else { throw .closePayloadTooShort }
        let code = WebSocketCloseCode(rawValue: UInt16(payload[0]) << 8 | UInt16(payload[1]))
        guard code.isValidOnTheWire else { throw .invalidCloseCode }
        var validator = UTF8Validator()
        let reason = payload[2...]
        guard validator.validate(reason), validator.isComplete else { throw .invalidUTF8 }
        return (code, String(decoding: reason, as: UTF8.self))
    }

    /// Closes the connection at once, on the peer's close frame or a protocol error. While open, `answer` (our close
    /// frame) is sent first and the session ends with `code` and `reason`; after our own close frame, with ours.
    private mutating func closeNow(
        answering answer: @autoclosure () -> [UInt8], code: WebSocketCloseCode?, reason: String,
        actions: inout [WebSocketAction]
    ) {
        switch state {
        case .open:
            actions.append(.send(answer()))
            actions.append(.closeConnection)
            actions.append(.didClose(code: code, reason: reason))
        case .closeSent(let ourCode, let ourReason, _):
            actions.append(.closeConnection)
            actions.append(.didClose(code: ourCode, reason: ourReason))
        case .closed:
            break
        }
        state = .closed
    }

    private mutating func fail(_ error: WebSocketProtocolError, actions: inout [WebSocketAction]) {
        closeNow(
            answering: WebSocketFrameEncoder.close(code: error.closeCode, reason: error.reason), code: error.closeCode,
            reason: error.reason, actions: &actions)
        message = []
        inflater = nil
        isMessageInProgress = false
        messageStartedAt = nil
    }

    // MARK: Sending

    /// The frame for a text message (compressed when negotiated and worthwhile); empty once closing.
    func encode(text: String) -> [UInt8] {
        encode(.text, payload: Array(text.utf8))
    }

    /// The frame for a binary message (compressed when negotiated and worthwhile); empty once closing.
    func encode(binary: [UInt8]) -> [UInt8] {
        encode(.binary, payload: binary)
    }

    private func encode(_ opcode: WebSocketOpcode, payload: [UInt8]) -> [UInt8] {
        guard isOpen else { return [] }
        if let deflate,
            let compressed = PreparedMessage.compressedFrame(
                opcode: opcode, payload: payload,
                configuration: configuration.deflate ?? PerMessageDeflateConfiguration(),
                windowBits: deflate.serverMaxWindowBits)
        {
            return compressed
        }
        return WebSocketFrameEncoder.frame(opcode, payload: payload)
    }

    // MARK: Closing and timers

    /// Starts the closing handshake: sends a close frame; no data frames follow. The connection closes
    /// when the peer answers, or after the close timeout.
    ///
    /// - Precondition: `code` may be sent on the wire (not 1005, 1006 or 1015).
    mutating func close(code: WebSocketCloseCode, reason: String = "") -> [WebSocketAction] {
        precondition(code.isValidOnTheWire, "close code \(code.rawValue) cannot be sent")
        guard case .open = state else { return [] }
        state = .closeSent(code: code, reason: reason, since: nil)
        return [.send(WebSocketFrameEncoder.close(code: code, reason: reason))]
    }

    /// Advances time: sends a keepalive ping after `pingInterval` of silence, gives up on a peer silent
    /// for `deadPeerTimeout` (close 1001 "ping timeout") or on a data message unfinished after
    /// `messageTimeout` (close 1008 "message timeout"), and drops a connection whose close frame went
    /// unanswered for `closeTimeout`.
    mutating func tick(now: ContinuousClock.Instant) -> [WebSocketAction] {
        if receivedSinceTick {
            lastActivity = now
            receivedSinceTick = false
        }
        if isMessageInProgress, messageStartedAt == nil {
            messageStartedAt = now
        }
        switch state {
        case .closed:
            return []
        case .closeSent(let code, let reason, let since):
            guard let since else {
                state = .closeSent(code: code, reason: reason, since: now)
                return []
            }
            guard now - since >= configuration.closeTimeout else { return [] }
            state = .closed
            return [.closeConnection, .didClose(code: code, reason: reason)]
        case .open:
            if now - lastActivity >= configuration.deadPeerTimeout {
                var actions: [WebSocketAction] = []
                fail(WebSocketProtocolError(.goingAway, "ping timeout"), actions: &actions)
                return actions
            }
            if let started = messageStartedAt, now - started >= configuration.messageTimeout {
                var actions: [WebSocketAction] = []
                fail(.messageTimeout, actions: &actions)
                return actions
            }
            if now - max(lastActivity, lastPing ?? lastActivity) >= configuration.pingInterval {
                lastPing = now
                return [.send(WebSocketFrameEncoder.frame(.ping, payload: []))]
            }
            return []
        }
    }

    /// The transport ended (peer closed or the socket failed): reports the close once if not yet reported.
    mutating func transportClosed() -> [WebSocketAction] {
        defer {
            state = .closed
            message = []
            inflater = nil
        }
        switch state {
        case .open: return [.didClose(code: nil, reason: "")]
        case .closeSent(let code, let reason, _): return [.didClose(code: code, reason: reason)]
        case .closed: return []
        }
    }
}

@available(*, unavailable)
extension WebSocketProtocolHandler: Sendable {}
