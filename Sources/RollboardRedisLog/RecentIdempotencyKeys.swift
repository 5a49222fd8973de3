import RollboardStore

/// The idempotency keys of the changes this node read from the stream most recently, as the append script remembers
/// them in Redis (`{P}:idem`), so that a node seeding a Redis that lost its data seeds them too: a producer whose
/// change was committed and read, but whose `202` was lost with Redis, retries it after the recovery and gets the
/// first answer rather than a second count.
struct RecentIdempotencyKeys: Sendable {
    enum Defaults {
        /// Keys kept, the newest: a retry after a loss comes within seconds, well inside them.
        static let count = 10_000
    }

    struct Key: Sendable, Equatable {
        /// The memory key (`r:KEY`, `e:ID`, `b:KEY`).
        var field: String
        /// `SEQ:ANSWER`, as the idem hash holds it.
        var value: [UInt8]
        /// The commit time (seconds since 1970), as the order list holds it.
        var committedAt: Double
        /// ``IdempotencyMemory/cost(key:answer:)``, as the byte sum counts it.
        var cost: Int
    }

    private var keys: [Key] = []

    /// The newest keys, oldest first.
    var newest: ArraySlice<Key> { keys.suffix(Defaults.count) }

    mutating func note(_ read: [Key]) {
        guard !read.isEmpty else { return }
        keys += read
        if keys.count > 2 * Defaults.count { keys.removeFirst(keys.count - Defaults.count) }
    }

    /// The `k` field of a stream entry for `remembering`: per key `OFFSET KEYLENGTH ANSWERLENGTH\n`, the key, the
    /// answer; empty without keys.
    static func field(_ remembering: [RedisKeys.RememberedKey]) -> [UInt8] {
        var bytes: [UInt8] = []
        for key in remembering {
            let answer = key.encoded
            bytes += Array("\(key.offset) \(key.key.utf8.count) \(answer.count)\n".utf8)
            bytes += Array(key.key.utf8) + answer
        }
        return bytes
    }

    /// The keys a `k` field carries, for the change numbered from `firstSeq` and committed at `committedAt`; `nil` if
    /// it is not what ``field(_:)`` writes.
    static func keys(inField bytes: [UInt8], firstSeq: UInt64, committedAt: Double) -> [Key]? {
        var found: [Key] = []
        var index = bytes.startIndex
        while index < bytes.endIndex {
            guard let newline = bytes[index...].firstIndex(of: UInt8(ascii: "\n")) else { return nil }
            let header = String(decoding: bytes[index..<newline], as: UTF8.self).split(separator: " ")
            guard header.count == 3, let offset = UInt64(header[0]), let keyLength = Int(header[1]),
                let answerLength = Int(header[2]), keyLength >= 0, answerLength >= 0,
                bytes.endIndex - (newline + 1) >= keyLength + answerLength
            else { return nil }
            let keyStart = newline + 1
            let answerStart = keyStart + keyLength
            let field = String(decoding: bytes[keyStart..<answerStart], as: UTF8.self)
            let answer = Array(bytes[answerStart..<(answerStart + answerLength)])
            found.append(
                Key(
                    field: field, value: Array("\(firstSeq + offset):".utf8) + answer, committedAt: committedAt,
                    cost: IdempotencyMemory.cost(key: field, answer: answer)))
            index = answerStart + answerLength
        }
        return found
    }
}
