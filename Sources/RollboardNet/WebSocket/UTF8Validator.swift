/// Incremental UTF-8 validation (RFC 3629) for text messages that arrive in pieces.
///
/// A deterministic automaton over bytes: it rejects at the first byte that cannot start or continue a
/// valid sequence (so a bad fragment fails at once, not at the end of the message) and remembers a
/// sequence split across fragments. ASCII runs are skipped eight bytes at a time.
struct UTF8Validator {
    /// States: `accept` between scalars; otherwise the continuation bytes still needed and the range the
    /// next one must fall in (narrower after E0, ED, F0 and F4 to forbid overlongs, surrogates and
    /// scalars above U+10FFFF).
    private enum State {
        case accept
        case oneMore
        case twoMore
        case threeMore
        case afterE0
        case afterED
        case afterF0
        case afterF4

        /// The range the next continuation byte must fall in (any but `accept`).
        var allowed: ClosedRange<UInt8> {
            switch self {
            case .accept, .oneMore, .twoMore, .threeMore: 0x80...0xBF
            case .afterE0: 0xA0...0xBF
            case .afterED: 0x80...0x9F
            case .afterF0: 0x90...0xBF
            case .afterF4: 0x80...0x8F
            }
        }

        /// The state after that continuation byte.
        var next: State {
            switch self {
            case .accept, .oneMore: .accept
            case .twoMore, .afterE0, .afterED: .oneMore
            case .threeMore, .afterF0, .afterF4: .twoMore
            }
        }
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
            default:
                guard current.allowed.contains(byte) else { return false }
                current = current.next
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
