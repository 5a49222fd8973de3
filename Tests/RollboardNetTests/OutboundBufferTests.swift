#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import RollboardNet

@Suite("Outbound buffer")
struct OutboundBufferTests {
    /// Takes at most `limit` bytes from the iovecs into `sink`, like a short write.
    private func take(_ vectors: UnsafeBufferPointer<iovec>, limit: Int, into sink: inout [UInt8]) -> Int {
        var taken = 0
        for vector in vectors where taken < limit {
            let count = min(vector.iov_len, limit - taken)
            sink += UnsafeRawBufferPointer(start: vector.iov_base, count: count)
            taken += count
        }
        return taken
    }

    @Test("writes chunks in order across partial writes", arguments: [1, 3, 7, 1000])
    func partialWrites(limit: Int) {
        var buffer = OutboundBuffer()
        buffer.append(Array("hello ".utf8))
        buffer.append(Array("vectored ".utf8))
        buffer.append(Array("world".utf8))
        #expect(buffer.count == 20)
        var sink: [UInt8] = []
        while !buffer.isEmpty {
            _ = buffer.write { take($0, limit: limit, into: &sink) }
        }
        #expect(String(decoding: sink, as: UTF8.self) == "hello vectored world")
        #expect(buffer.count == 0)
    }

    @Test("passes at most 64 chunks to one write")
    func chunkLimit() {
        var buffer = OutboundBuffer()
        for _ in 0..<100 { buffer.append([1]) }
        var seen = 0
        _ = buffer.write { vectors in
            seen = vectors.count
            return vectors.count
        }
        #expect(seen == 64)
        #expect(buffer.count == 36)
    }

    @Test("keeps everything when a write fails")
    func failedWrite() {
        var buffer = OutboundBuffer()
        buffer.append([1, 2, 3])
        #expect(buffer.write { _ in -1 } == -1)
        #expect(buffer.count == 3)
    }

    @Test("ignores empty chunks")
    func emptyChunk() {
        var buffer = OutboundBuffer()
        buffer.append([])
        #expect(buffer.isEmpty)
    }
}
