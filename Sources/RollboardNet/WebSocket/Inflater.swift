internal import CZlib

/// A raw-inflate decompressor for permessage-deflate (RFC 7692 section 7.2.2) with a cap on the
/// inflated size, so a deflate bomb stops at the limit instead of exhausting memory.
///
/// Owns a `z_stream`, freed in `deinit`; use from one queue at a time. zlib allocates the window
/// (`1 << windowBits` bytes) on first output.
final class Inflater {
    private let stream: UnsafeMutablePointer<z_stream>
    /// Set once a block with BFINAL ended the deflate stream; the rest of the message is ignored.
    private var reachedStreamEnd = false

    private static let syncFlushTail: [UInt8] = [0x00, 0x00, 0xFF, 0xFF]

    /// - Parameter windowBits: the largest window the peer compresses with, 8...15.
    init(windowBits: Int) throws(ZlibError) {
        guard (8...15).contains(windowBits) else { throw .invalidParameters }
        stream = try ZlibStream.make { CZlib_inflateInit2($0, -Int32(windowBits)) }
    }

    deinit {
        ZlibStream.free(stream) { inflateEnd($0) }
    }

    /// Inflates part of a message, appending to `output`; throws ``ZlibError/outputLimitExceeded`` as
    /// soon as `output` would grow past `limit` bytes.
    func inflate(_ input: some Collection<UInt8>, into output: inout [UInt8], limit: Int) throws(ZlibError) {
        let failure =
            input.withContiguousStorageIfAvailable { inflate(UnsafeRawBufferPointer($0), into: &output, limit: limit) }
            ?? Array(input).withUnsafeBytes { inflate($0, into: &output, limit: limit) }
        if let failure { throw failure }
    }

    /// Ends a message: inflates the `00 00 ff ff` tail the sender stripped, and readies the stream for
    /// the next message (the window stays for context takeover).
    func finishMessage(into output: inout [UInt8], limit: Int) throws(ZlibError) {
        let failure = Self.syncFlushTail.withUnsafeBytes { inflate($0, into: &output, limit: limit) }
        if let failure { throw failure }
        if reachedStreamEnd {
            inflateReset(stream)
            reachedStreamEnd = false
        }
    }

    /// Inflates `input` into `output`; returns the failure, if any.
    private func inflate(_ input: UnsafeRawBufferPointer, into output: inout [UInt8], limit: Int) -> ZlibError? {
        guard !reachedStreamEnd, !input.isEmpty else { return nil }
        defer {
            stream.pointee.next_in = nil
            stream.pointee.next_out = nil
        }
        stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress!.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = uInt(input.count)
        return withUnsafeTemporaryAllocation(of: Bytef.self, capacity: Self.chunkSize) { scratch in
            while true {
                // One byte more than the room left, so overflowing the limit is seen, not silently cut.
                let size = min(Self.chunkSize, max(limit - output.count, 0) + 1)
                stream.pointee.next_out = scratch.baseAddress!
                stream.pointee.avail_out = uInt(size)
                let status = CZlib.inflate(stream, Z_NO_FLUSH)
                let unused = Int(stream.pointee.avail_out)
                output.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[..<(size - unused)]))
                if output.count > limit { return .outputLimitExceeded }
                switch status {
                case Z_STREAM_END:
                    reachedStreamEnd = true
                    return nil
                case Z_OK:
                    if stream.pointee.avail_in == 0 && unused > 0 { return nil }
                case Z_BUF_ERROR:
                    // No progress possible: all input consumed and all output flushed.
                    return nil
                default:
                    return ZlibError.from(status)
                }
            }
        }
    }

    /// Output is inflated through a scratch buffer of this size.
    private static let chunkSize = 16384
}

@available(*, unavailable)
extension Inflater: Sendable {}
