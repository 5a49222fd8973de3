import RollboardNet
import Testing

/// A malformed frame a screen sends and the close code it must earn.
struct BrokenFrame: Sendable, CustomTestStringConvertible {
    enum Payload: Sendable {
        case bytes([UInt8])
        case filled(count: Int)

        var bytes: [UInt8] {
            switch self {
            case .bytes(let bytes): bytes
            case .filled(let count): [UInt8](repeating: UInt8(ascii: "a"), count: count)
            }
        }
    }

    let name: String
    var opcode: UInt8 = 0x1
    var payload: Payload = .bytes(Array(#"{"type":"pause"}"#.utf8))
    var fin = true
    var rsv: UInt8 = 0
    var masked = true
    let closeCode: UInt16

    var testDescription: String { "\(name) → \(closeCode)" }

    /// The default `WebSocketConfiguration.maxMessageBytes`, which `rollboard serve` keeps.
    static let maxMessageBytes = WebSocketConfiguration().maxMessageBytes

    static let all = [
        BrokenFrame(name: "an unmasked frame", masked: false, closeCode: 1002),
        BrokenFrame(name: "reserved data opcode 0x3", opcode: 0x3, closeCode: 1002),
        BrokenFrame(name: "reserved control opcode 0xB", opcode: 0xB, payload: .bytes([]), closeCode: 1002),
        BrokenFrame(name: "RSV1 without permessage-deflate", rsv: 0x4, closeCode: 1002),
        BrokenFrame(name: "a continuation with nothing to continue", opcode: 0x0, closeCode: 1002),
        BrokenFrame(name: "a fragmented ping", opcode: 0x9, payload: .bytes([1]), fin: false, closeCode: 1002),
        BrokenFrame(name: "a ping of 126 bytes", opcode: 0x9, payload: .filled(count: 126), closeCode: 1002),
        BrokenFrame(name: "invalid UTF-8 text", payload: .bytes([0x7B, 0xC3, 0x28, 0x7D]), closeCode: 1007),
        BrokenFrame(name: "a text message one byte over the limit", payload: .filled(count: maxMessageBytes + 1), closeCode: 1009),
    ]
}
