import RollboardAnimation
import Testing

@testable import RollboardCore
@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardRedisLog
@testable import RollboardAccess
@testable import RollboardAPI
@testable import RollboardServer

/// What the idempotency memory keeps (compact answers within a budget of bytes, oldest forgotten first) and that its
/// encoding reads back to the same memory, in the snapshot's encoding of today and of before.
@Suite("Idempotency memory")
struct IdempotencyMemoryTests {
    /// A committed batch of `count` increments keyed `key`, numbered from `first`, committed at `time`.
    static func batch(_ count: Int, key: String?, first: UInt64, at time: Double, eventIDs: Bool = false)
        -> [StoredMetric]
    {
        (0..<count).map { index in
            var metric = StoredMetric(
                id: "c\(100 + index % 100)", value: Double(index), seq: first + UInt64(index), updatedAt: time,
                interval: 2, animated: false, increment: 1, eventID: eventIDs ? "event-\(first)-\(index)" : nil)
            if index == 0 { metric.requestKey = key }
            return metric
        }
    }

    @Test("a keyed batch of 1,000 increments keeps under 30 KB, what rebuilds its answer: metric, total, increment, seq")
    func compactAnswer() throws {
        var memory = IdempotencyMemory()
        let metrics = Self.batch(1_000, key: "big", first: 1, at: 1_000)
        memory.remember(metrics)
        #expect(memory.bytes < 30_000, "\(memory.bytes) bytes")
        let answer = try #require(memory.lookup(IdempotencyMemory.requestKey("big"), at: 1_001))
        #expect(answer.map(\.id) == metrics.map(\.id))
        #expect(answer.map(\.value) == metrics.map(\.value))
        #expect(answer.map(\.seq) == metrics.map(\.seq))
        #expect(answer.map(\.increment) == metrics.map(\.increment))
    }

    @Test("past its budget the memory forgets its oldest keys first and never keeps more bytes than the budget")
    func budget() {
        var memory = IdempotencyMemory(budget: 200_000)
        var first: UInt64 = 1
        for number in 0..<40 {
            memory.remember(Self.batch(1_000, key: "b\(number)", first: first, at: 1_000 + Double(number)))
            first += 1_000
            #expect(memory.bytes <= 200_000)
        }
        let kept = (0..<40).filter { memory.lookup(IdempotencyMemory.requestKey("b\($0)"), at: 1_040) != nil }
        #expect(!kept.isEmpty && kept == Array(kept.first!..<40), "the newest are kept, without a gap: \(kept)")
        #expect(kept.count < 40)
        #expect(memory.bytes == memory.remembered.reduce(0) { $0 + IdempotencyMemory.cost(key: $1.key, answer: $1.entry.answer) })
    }

    @Test("a memory read back from its encoding (a snapshot) holds the same keys in order and, fed the same commits, forgets the same")
    func sameAfterReload() throws {
        var memory = IdempotencyMemory(budget: 100_000)
        var first: UInt64 = 1
        func next(_ number: Int) -> [StoredMetric] {
            defer { first += 300 }
            return Self.batch(300, key: "k\(number)", first: first, at: 1_000 + Double(number), eventIDs: number % 2 == 0)
        }
        for number in 0..<10 { memory.remember(next(number)) }
        memory.remember(
            StoredLeaderboard(
                id: "sales", entries: [.init(name: "Alice", value: 3)], seq: first, updatedAt: 1_011,
                requestKey: "board-key", request: "sales increment 5:Alice=3.0"))
        first += 1
        var writer = BinaryWriter()
        memory.encode(into: &writer)
        var reader = BinaryReader(writer.bytes[...])
        var reloaded = try #require(IdempotencyMemory(reader: &reader, budget: 100_000))
        #expect(reader.isAtEnd)
        #expect(reloaded == memory)
        #expect(reloaded.bytes == memory.bytes)
        for number in 10..<16 {
            let metrics = next(number)
            memory.remember(metrics)
            reloaded.remember(metrics)
        }
        #expect(reloaded == memory)
        #expect(reloaded.remembered.map(\.key) == memory.remembered.map(\.key))
    }

    @Test("a snapshot written before (whole metrics and keyed boards per key) still reads, its answers the same")
    func olderEncodingReads() throws {
        var writer = BinaryWriter()
        writer.write(UInt32(2))
        writer.write("r:old")
        writer.write(1_000.0)
        let metrics = Self.batch(3, key: "old", first: 5, at: 1_000)
        writer.write(parts: metrics.map(ExtendedMetric.init))
        writer.write("b:board")
        writer.write(1_001.0)
        writer.write(UInt32(0))
        let board = StoredLeaderboard(
            id: "sales", entries: [.init(name: "Bob", value: 2)], seq: 9, updatedAt: 1_001, requestKey: "board",
            request: "sales replace 3:Bob=2.0")
        KeyedLeaderboard(board).encode(into: &writer)
        var reader = BinaryReader(writer.bytes[...])
        let memory = try #require(IdempotencyMemory(reader: &reader))
        #expect(memory.lookup("r:old", at: 1_002)?.map(\.seq) == [5, 6, 7])
        let remembered = try #require(memory.board("b:board", at: 1_002))
        #expect(remembered.entries == board.entries && remembered.seq == 9)
        let retry = LeaderboardCommitRequest(id: "sales", edit: .replace([.init(name: "Bob", value: 2)]), limit: 10, requestKey: "board")
        #expect(retry.resolve(against: nil, remembered: remembered) == .replay(remembered))
        let other = LeaderboardCommitRequest(id: "sales", edit: .replace([.init(name: "Bob", value: 3)]), limit: 10, requestKey: "board")
        #expect(other.resolve(against: nil, remembered: remembered) != .replay(remembered))
    }

    @Test("a value Redis keeps reads back, numbered from its SEQ, in this encoding and as an earlier version wrote it")
    func redisValues() throws {
        let relative = Self.batch(2, key: "r", first: 0, at: 7)
        let answer = RememberedAnswer(relative)
        let value = Array("41:".utf8) + answer.encoded
        #expect(RememberedAnswer(numbered: value[...]) == RememberedAnswer(Self.batch(2, key: "r", first: 41, at: 7)))
        let legacy = Array("41:".utf8) + StoreChange.metrics(relative).payload
        #expect(RememberedAnswer(numbered: legacy[...]) == RememberedAnswer(Self.batch(2, key: "r", first: 41, at: 7)))
        #expect(RememberedAnswer(numbered: Array("41:junk".utf8)[...]) == nil)
    }

    @Test("a key is shown whole up to 32 characters, else its first 32 and its length", arguments: [
        ("order-7731", "\"order-7731\""),
        (String(repeating: "a", count: 32), "\"" + String(repeating: "a", count: 32) + "\""),
        (String(repeating: "a", count: 200), "\"" + String(repeating: "a", count: 32) + "…\" (200 bytes)"),
    ])
    func shown(key: String, expected: String) {
        #expect(IdempotencyMemory.shown(key) == expected)
    }
}
