internal import CZlib

/// A raw-deflate compressor for permessage-deflate (RFC 7692 section 7.2.1).
///
/// By default every message is compressed with a fresh context (the stream is reset, not rebuilt, after each), so
/// its output can be shared between connections; with `keepsContext` the context carries from message to message,
/// for a stream of messages that every receiver decompresses in the same order.
///
/// Owns a `z_stream`, freed in `deinit`; use from one queue at a time.
final class Deflater {
    private let stream: UnsafeMutablePointer<z_stream>

    /// The window zlib actually uses: raw deflate refuses 8, so 8 becomes 9 (whose distances never
    /// exceed 250, valid for an 8-bit peer).
    let windowBits: Int
    /// Whether the context carries from one message to the next.
    let keepsContext: Bool

    /// - Parameters:
    ///   - windowBits: LZ77 window, 8...15.
    ///   - memoryLevel: zlib memLevel, 1...9.
    ///   - level: compression level, 0...9.
    ///   - keepsContext: whether each message may refer to the ones before it.
    init(windowBits: Int, memoryLevel: Int, level: Int, keepsContext: Bool = false) throws(ZlibError) {
        guard (8...15).contains(windowBits), (1...9).contains(memoryLevel), (0...9).contains(level) else {
            throw .invalidParameters
        }
        self.windowBits = max(9, windowBits)
        self.keepsContext = keepsContext
        let bits = -Int32(self.windowBits)
        stream = try ZlibStream.make {
            CZlib_deflateInit2($0, Int32(level), Z_DEFLATED, bits, Int32(memoryLevel), Z_DEFAULT_STRATEGY)
        }
    }

    deinit {
        ZlibStream.free(stream) { deflateEnd($0) }
    }

    /// One whole message compressed and flushed with `Z_SYNC_FLUSH`, without the trailing `00 00 ff ff`.
    func compress(_ input: some Collection<UInt8>) throws(ZlibError) -> [UInt8] {
        let bytes = Array(input)
        defer { if !keepsContext { deflateReset(stream) } }
        var output: [UInt8] = []
        var status = Z_OK
        bytes.withUnsafeBytes { inputBuffer in
            stream.pointee.next_in = UnsafeMutablePointer(
                mutating: inputBuffer.baseAddress?.assumingMemoryBound(to: Bytef.self))
            stream.pointee.avail_in = uInt(inputBuffer.count)
            output.reserveCapacity(Int(deflateBound(stream, uLong(inputBuffer.count))) + 8)
            withUnsafeTemporaryAllocation(of: Bytef.self, capacity: 16384) { scratch in
                repeat {
                    stream.pointee.next_out = scratch.baseAddress!
                    stream.pointee.avail_out = uInt(scratch.count)
                    status = deflate(stream, Z_SYNC_FLUSH)
                    let produced = scratch.count - Int(stream.pointee.avail_out)
                    output.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[..<produced]))
                } while status == Z_OK && stream.pointee.avail_out == 0
            }
            stream.pointee.next_in = nil
            stream.pointee.next_out = nil
        }
        guard status == Z_OK || status == Z_BUF_ERROR else { throw ZlibError.from(status) }
        guard output.count >= 4, output.suffix(4).elementsEqual([0x00, 0x00, 0xFF, 0xFF]) else {
            throw ZlibError(code: status, message: "deflate did not end with a sync flush")
        }
        output.removeLast(4)
        return output
    }
}

@available(*, unavailable)
extension Deflater: Sendable {}
