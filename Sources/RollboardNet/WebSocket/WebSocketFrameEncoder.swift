/// Builds WebSocket frames. Server frames are unmasked; a masking key is for tests and tools that
/// play the client.
enum WebSocketFrameEncoder {
    /// One frame carrying `payload`.
    static func frame(
        _ opcode: WebSocketOpcode,
        payload: some Collection<UInt8>,
        isFinal: Bool = true,
        isCompressed: Bool = false,
        maskingKey: [UInt8]? = nil
    ) -> [UInt8] {
        var frame: [UInt8] = []
        frame.reserveCapacity(payload.count + 14)
        frame.append((isFinal ? 0x80 : 0) | (isCompressed ? 0x40 : 0) | opcode.rawValue)
        let maskBit: UInt8 = maskingKey == nil ? 0 : 0x80
        switch payload.count {
        case ..<126:
            frame.append(maskBit | UInt8(payload.count))
        case ...0xFFFF:
            frame.append(maskBit | 126)
            frame.append(UInt8(truncatingIfNeeded: payload.count >> 8))
            frame.append(UInt8(truncatingIfNeeded: payload.count))
        default:
            frame.append(maskBit | 127)
            for shift in stride(from: 56, through: 0, by: -8) {
                frame.append(UInt8(truncatingIfNeeded: UInt64(payload.count) >> UInt64(shift)))
            }
        }
        if let maskingKey {
            precondition(maskingKey.count == 4, "a masking key has four bytes")
            frame.append(contentsOf: maskingKey)
            let start = frame.count
            frame.append(contentsOf: payload)
            var maskOffset = 0
            frame[start...].withUnsafeMutableBytes {
                WebSocketMasking.apply(key: maskingKey, offset: &maskOffset, to: $0)
            }
        } else {
            frame.append(contentsOf: payload)
        }
        return frame
    }

    /// A close frame with an optional code and a reason cut to fit the 125-byte control payload.
    static func close(code: WebSocketCloseCode?, reason: String = "", maskingKey: [UInt8]? = nil) -> [UInt8] {
        var payload: [UInt8] = []
        if let code {
            payload = [UInt8(code.rawValue >> 8), UInt8(truncatingIfNeeded: code.rawValue)]
            payload.append(contentsOf: truncatedUTF8(reason, maxBytes: 123))
        }
        return frame(.close, payload: payload, maskingKey: maskingKey)
    }

    /// The longest prefix of `text` that fits `maxBytes` without splitting a scalar.
    static func truncatedUTF8(_ text: String, maxBytes: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        for scalar in text.unicodeScalars {
            let encoded = Array(String(scalar).utf8)
            guard bytes.count + encoded.count <= maxBytes else { break }
            bytes.append(contentsOf: encoded)
        }
        return bytes
    }
}
