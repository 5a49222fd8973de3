/// Incremental UTF-8 validation (RFC 3629) for text messages that arrive in pieces.
///
/// A deterministic automaton over bytes: it rejects at the first byte that cannot start or continue a
/// valid sequence (so a bad fragment fails at once, not at the end of the message) and remembers a
/// sequence split across fragments. ASCII runs are skipped eight bytes at a time.
struct UTF8Validator {
    /// States: `accept` between scalars; otherwise the continuation bytes still needed and the range the
    /// next one must fall in (narrower after E0, ED, F0 and F4 to forbid overlongs, surrogates and
    /// scalars above U+10FFFF).
    private enum State: UInt8 {
        case accept
        case oneMore  // 80...BF, then accept
        case twoMore  // 80...BF, then oneMore
        case threeMore  // 80...BF, then twoMore
        case afterE0  // A0...BF, then oneMore
        case afterED  // 80...9F, then oneMore
        case afterF0  // 90...BF, then twoMore
        case afterF4  // 80...8F, then twoMore
    }

    private var state = State.accept

    /// Whether the bytes so far end on a scalar boundary (a message may end here).
    var isComplete: Bool { state == .accept }

    /// Feeds more bytes; `false` as soon as they cannot be part of valid UTF-8 (the validator must then be discarded).
    mutating func validate(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        let count = bytes.count
        var current = state
        while index < count {
            if current == .accept {
                while index + 8 <= count,
                    bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
                {
                    index += 8
                }
                guard index < count else { break }
            }
            let byte = bytes[index]
            index += 1
            switch current {
            case .accept:
                switch byte {
                case 0x00...0x7F: current = .accept
                case 0xC2...0xDF: current = .oneMore
                case 0xE0: current = .afterE0
                case 0xE1...0xEC, 0xEE...0xEF: current = .twoMore
                case 0xED: current = .afterED
                case 0xF0: current = .afterF0
                case 0xF1...0xF3: current = .threeMore
                case 0xF4: current = .afterF4
                default: return false
                }
            case .oneMore, .twoMore, .threeMore:
                guard (0x80...0xBF).contains(byte) else { return false }
                current = State(rawValue: current.rawValue - 1)!
            case .afterE0:
                guard (0xA0...0xBF).contains(byte) else { return false }
                current = .oneMore
            case .afterED:
                guard (0x80...0x9F).contains(byte) else { return false }
                current = .oneMore
            case .afterF0:
                guard (0x90...0xBF).contains(byte) else { return false }
                current = .twoMore
            case .afterF4:
                guard (0x80...0x8F).contains(byte) else { return false }
                current = .twoMore
            }
        }
        state = current
        return true
    }

    mutating func validate(_ bytes: some Collection<UInt8>) -> Bool {
        if let result = bytes.withContiguousStorageIfAvailable({ validate(UnsafeRawBufferPointer($0)) }) {
            return result
        }
        return Array(bytes).withUnsafeBytes { validate($0) }
    }
}
