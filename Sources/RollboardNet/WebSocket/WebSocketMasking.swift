/// XOR masking of WebSocket payloads (RFC 6455 section 5.3), eight bytes at a time.
enum WebSocketMasking {
    /// Masks or unmasks `buffer` in place; `offset` is the payload position modulo 4 and advances.
    static func apply(key: [UInt8], offset: inout Int, to buffer: UnsafeMutableRawBufferPointer) {
        apply(key: (key[0], key[1], key[2], key[3]), offset: &offset, to: buffer)
    }

    static func apply(
        key: (UInt8, UInt8, UInt8, UInt8),
        offset: inout Int,
        to buffer: UnsafeMutableRawBufferPointer
    ) {
        guard !buffer.isEmpty else { return }
        let start = offset
        withUnsafeBytes(of: key) { keyBytes in
            var wide: UInt64 = 0
            withUnsafeMutableBytes(of: &wide) { word in
                for index in 0..<8 { word[index] = keyBytes[(start + index) & 3] }
            }
            var index = 0
            let count = buffer.count
            while index + 8 <= count {
                let value = buffer.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                buffer.storeBytes(of: value ^ wide, toByteOffset: index, as: UInt64.self)
                index += 8
            }
            while index < count {
                buffer[index] ^= keyBytes[(start + index) & 3]
                index += 1
            }
        }
        offset = (start + buffer.count) & 3
    }
}
