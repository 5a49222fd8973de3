// libFuzzer entry point for the WebSocket receive path: frame decoder, UTF-8 validation, inflater
// and the protocol handler's state machine. Built by Fuzz/run-websocket.sh together with the
// RollboardNet sources, so it can use internal types.

/// Input layout: byte 0 picks the configuration and seeds how the rest is split into reads; the rest
/// is the byte stream from the "client".
@_cdecl("LLVMFuzzerTestOneInput")
public func webSocketFuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 0 else { return 0 }
    let input = UnsafeBufferPointer(start: data, count: size)
    let flags = input[0]
    let maxMessageBytes = flags & 0x01 != 0 ? 4096 : 1 << 20
    let configuration = WebSocketConfiguration(
        maxMessageBytes: maxMessageBytes, maxFrameBytes: flags & 0x02 != 0 ? 512 : nil)
    let deflate = PerMessageDeflateParameters(
        clientNoContextTakeover: flags & 0x04 == 0,
        serverMaxWindowBits: 15,
        clientMaxWindowBits: 8 + Int(flags >> 5))
    let start = ContinuousClock.now
    var handler = WebSocketProtocolHandler(configuration: configuration, deflate: deflate, now: start)

    var split = UInt64(flags) &* 0x9E37_79B9_7F4A_7C15 | 1
    var index = 1
    var closed = false
    var tick = 0
    while index < size {
        split ^= split << 13
        split ^= split >> 7
        split ^= split << 17
        let end = min(size, index + 1 + Int(split % 97))
        let actions = handler.receive(input[index..<end])
        if closed && !actions.isEmpty { fatalError("actions after the connection closed: \(actions)") }
        check(actions, maxMessageBytes: maxMessageBytes, closed: &closed)
        if split & 0x0F == 0 {
            tick += 7
            check(handler.tick(now: start + .seconds(tick)), maxMessageBytes: maxMessageBytes, closed: &closed)
        }
        index = end
    }
    check(handler.transportClosed(), maxMessageBytes: maxMessageBytes, closed: &closed)
    if !closed { fatalError("the close was never reported") }
    return 0
}

/// Invariants every action list must keep.
private func check(_ actions: [WebSocketAction], maxMessageBytes: Int, closed: inout Bool) {
    for action in actions {
        if closed { fatalError("an action after didClose: \(action)") }
        switch action {
        case .deliverText(let text):
            if text.utf8.count > maxMessageBytes { fatalError("text message over the limit") }
        case .deliverBinary(let bytes):
            if bytes.count > maxMessageBytes { fatalError("binary message over the limit") }
        case .send(let frame):
            // Our own frames must decode (re-masked as a client's would be).
            if frame.count < 2 || frame[0] & 0x70 != 0 { fatalError("malformed outgoing frame") }
        case .closeConnection:
            break
        case .didClose:
            closed = true
        }
    }
}
