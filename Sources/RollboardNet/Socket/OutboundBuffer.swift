#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes queued for one connection, as the chunks they were handed in, written out with vectored writes.
///
/// A plain value; the connection that owns it confines it to its queue.
package struct OutboundBuffer {
    /// At most this many chunks go into one vectored write.
    static let maxChunksPerWrite = 64

    private var chunks: [[UInt8]] = []
    /// Index of the first chunk not yet fully written.
    private var head = 0
    /// Bytes of `chunks[head]` already written.
    private var headOffset = 0
    /// Bytes waiting to be written.
    private(set) var count = 0

    package init() {}

    package var isEmpty: Bool { count == 0 }

    package mutating func append(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        chunks.append(bytes)
        count += bytes.count
    }

    /// Calls `write` with up to `maxChunksPerWrite` iovecs over the queued bytes; `write` returns how many bytes
    /// were written (or a negative value for an error, which is returned unchanged). Written bytes are dropped.
    mutating func write(_ write: (UnsafeBufferPointer<iovec>) -> Int) -> Int {
        guard !isEmpty else { return 0 }
        let end = min(chunks.count, head + Self.maxChunksPerWrite)
        var vectors: [iovec] = []
        vectors.reserveCapacity(end - head)
        let written = gather(head, end: end, into: &vectors, write)
        if written > 0 { consume(written) }
        return written
    }

    /// Writes to the non-blocking socket `descriptor` until the buffer is empty (`nil`) or a write fails: returns
    /// the `errno` that stopped it (`EAGAIN` or `EWOULDBLOCK` when the socket is full). The one send loop of every
    /// socket.
    package mutating func send(to descriptor: Int32) -> Int32? {
        while !isEmpty {
            let written = write { vectors in
                var message = msghdr()
                message.msg_iov = UnsafeMutablePointer(mutating: vectors.baseAddress)
                message.msg_iovlen = numericCast(vectors.count)
                return sendmsg(descriptor, &message, Int32(MSG_NOSIGNAL))
            }
            if written < 0, errno != EINTR { return errno }
        }
        return nil
    }

    /// Pins chunk `index` (and, recursively, the ones after it) while `write` runs over their iovecs.
    private func gather(
        _ index: Int, end: Int, into vectors: inout [iovec], _ write: (UnsafeBufferPointer<iovec>) -> Int
    ) -> Int {
        if index == end {
            return vectors.withUnsafeBufferPointer(write)
        }
        return chunks[index].withUnsafeBytes { bytes in
            let skip = index == head ? headOffset : 0
            vectors.append(iovec(iov_base: UnsafeMutableRawPointer(mutating: bytes.baseAddress! + skip), iov_len: bytes.count - skip))
            return gather(index + 1, end: end, into: &vectors, write)
        }
    }

    /// Drops `byteCount` written bytes from the front.
    private mutating func consume(_ byteCount: Int) {
        var remaining = byteCount
        count -= byteCount
        while remaining > 0 {
            let available = chunks[head].count - headOffset
            if remaining >= available {
                remaining -= available
                head += 1
                headOffset = 0
            } else {
                headOffset += remaining
                remaining = 0
            }
        }
        if head == chunks.count {
            chunks.removeAll(keepingCapacity: chunks.count <= 16)
            head = 0
        } else if head >= 32 && head * 2 >= chunks.count {
            chunks.removeFirst(head)
            head = 0
        }
    }

    /// Drops everything (the connection is closing without flushing).
    package mutating func removeAll() {
        chunks = []
        head = 0
        headOffset = 0
        count = 0
    }
}
