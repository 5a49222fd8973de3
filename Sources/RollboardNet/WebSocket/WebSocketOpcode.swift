/// A WebSocket frame opcode (RFC 6455 section 5.2).
enum WebSocketOpcode: UInt8, Sendable {
    case continuation = 0x0
    case text = 0x1
    case binary = 0x2
    case close = 0x8
    case ping = 0x9
    case pong = 0xA

    /// Control frames (close, ping, pong) have the high opcode bit set.
    var isControl: Bool { rawValue & 0x8 != 0 }
}
