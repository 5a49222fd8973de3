internal import CHiredis

/// A pure RESP parser over hiredis's `redisReader`: fed the bytes that came from the server, it returns the
/// replies they complete. The size limit is checked in one place (`feed`); once failed, it stays failed.
///
/// Owns the C reader (freed in `deinit`) and frees every `redisReply` it takes from it. Confined to its owner's
/// queue.
final class RedisReplyReader {
    /// The largest reply accepted by default (Redis's own `proto-max-bulk-len` is 512 MiB).
    static let defaultMaximumReplyBytes = 512 * 1024 * 1024

    let maximumReplyBytes: Int
    private let reader: UnsafeMutablePointer<redisReader>
    /// Bytes fed since the last complete reply: the reply in progress (and any bytes behind it).
    private var bytesInReply = 0
    private var failure: RedisError?

    init(maximumReplyBytes: Int = RedisReplyReader.defaultMaximumReplyBytes) {
        // It fails only when malloc does, which Swift's own allocations treat as fatal too.
        guard let reader = redisReaderCreate() else { fatalError("redisReaderCreate: out of memory") }
        self.reader = reader
        self.maximumReplyBytes = maximumReplyBytes
    }

    deinit {
        redisReaderFree(reader)
    }

    /// Feeds `bytes` and returns every reply they complete, in order.
    func feed(_ bytes: UnsafeRawBufferPointer) throws(RedisError) -> [RedisReply] {
        if let failure { throw failure }
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return [] }
        bytesInReply += bytes.count
        guard bytesInReply <= maximumReplyBytes else {
            try fail(.protocolError("a reply is larger than \(maximumReplyBytes) bytes"))
        }
        guard redisReaderFeed(reader, base.assumingMemoryBound(to: CChar.self), bytes.count) == REDIS_OK else {
            try fail(readerError())
        }
        var replies: [RedisReply] = []
        while true {
            var object: UnsafeMutableRawPointer?
            guard redisReaderGetReply(reader, &object) == REDIS_OK else {
                try fail(readerError())
            }
            guard let object else { break }
            defer { freeReplyObject(object) }
            do throws(RedisError) {
                replies.append(try Self.convert(object.assumingMemoryBound(to: redisReply.self)))
            } catch {
                try fail(error)
            }
            bytesInReply = CHiredis_redisReaderUnconsumedBytes(reader)
        }
        return replies
    }

    /// `feed` over an array.
    func feed(_ bytes: [UInt8]) throws(RedisError) -> [RedisReply] {
        let result = bytes.withUnsafeBytes { buffer in Result { () throws(RedisError) in try feed(buffer) } }
        return try result.get()
    }

    private func fail(_ error: RedisError) throws(RedisError) -> Never {
        failure = error
        throw error
    }

    private func readerError() -> RedisError {
        let detail = String(cString: CHiredis_redisReaderGetError(reader))
        return .protocolError(detail.isEmpty ? "cannot parse the reply" : detail)
    }

    private static func convert(_ reply: UnsafeMutablePointer<redisReply>) throws(RedisError) -> RedisReply {
        let value = reply.pointee
        switch value.type {
        case REDIS_REPLY_STATUS:
            return .status(String(decoding: bytes(value), as: UTF8.self))
        case REDIS_REPLY_ERROR:
            return .error(String(decoding: bytes(value), as: UTF8.self))
        case REDIS_REPLY_INTEGER:
            return .integer(Int64(value.integer))
        case REDIS_REPLY_STRING:
            return .bulk(Array(bytes(value)))
        case REDIS_REPLY_NIL:
            return .null
        case REDIS_REPLY_ARRAY:
            var elements: [RedisReply] = []
            elements.reserveCapacity(value.elements)
            for index in 0..<value.elements {
                guard let element = value.element[index] else {
                    throw .protocolError("an array reply is missing element \(index)")
                }
                elements.append(try convert(element))
            }
            return .array(elements)
        default:
            throw .protocolError("unknown reply type \(value.type)")
        }
    }

    private static func bytes(_ reply: redisReply) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: reply.str, count: reply.str == nil ? 0 : reply.len)
    }
}

@available(*, unavailable)
extension RedisReplyReader: Sendable {}
