import Logging
import Testing

@testable import RollboardConfig
@testable import RollboardMetrics
@testable import RollboardRedisLog
@testable import RollboardStore
import RollboardRedis
import RollboardTestSupport

/// A rolling upgrade puts two versions of the node on one stream: a change of a kind only the newer one knows is
/// skipped by the older one, never a crash or a reader that stops (docs/cluster.md, "Rolling upgrade").
@Suite("Redis change log: unknown change kinds", .serialized, .enabled(if: RedisServerProcess.shouldRun))
struct RedisUnknownChangeKindTests {
    /// A kind byte no version of the node writes yet.
    static let unknownKind: UInt8 = 0xEE

    @Test("entries of a kind the node does not know are skipped with one log line per kind and counted, and the known change after them is applied")
    func skipsUnknownKinds() async throws {
        let redis = try RedisServerProcess.forChangeLog()
        let settings = RedisSettings(url: redis.url, keyPrefix: "test")
        var quiet = Logger(label: "test.redis")
        quiet.logLevel = .critical
        let recorded = Logger.recording("test.redis.older")
        let writer = try RedisChangeLog.opened(settings: settings, logger: quiet)
        let older = try RedisChangeLog.opened(settings: settings, logger: recorded.logger)
        defer {
            writer.close()
            older.close()
        }
        _ = await append(writer, "orders", 1)
        #expect(await older.waitForChanges { older.lastSeq == 1 })
        let heard = HeardChanges(older)

        // A newer node's changes: a batch of three (sequence 2…4) and one more (5) of a kind this node does not know,
        // each with its latest entry, as the append script writes them.
        let raw = RedisConnection(configuration: .init(url: try RedisURL(redis.url)), logger: quiet)
        defer { raw.close() }
        let payload = [Self.unknownKind, 0, 0, 0, 3, 1, 2, 3]
        await connect(raw)
        #expect(await send(raw, ["INCRBY", "{test}:seq", "3"]).integerValue == 4)
        _ = await send(raw, ["XADD", "{test}:changes", "*", "s", "2", "r"], payload)
        #expect(await send(raw, ["INCRBY", "{test}:seq", "1"]).integerValue == 5)
        _ = await send(raw, ["XADD", "{test}:changes", "*", "s", "5", "r"], payload)
        _ = await send(raw, ["HSET", "{test}:latest", "x:new"], Array("5:".utf8) + payload)

        let last = await append(writer, "orders", 42)
        #expect((try? last.get())?.first?.seq == 6)
        #expect(await older.waitForChanges { older.lastSeq == 6 })
        #expect(older.current("orders")?.value == 42)
        #expect(await heard.wait { heard.all.map(\.lastSeq) == [6] }, "the known change is told, and nothing else")
        #expect(older.isFeedLive && older.failure == nil)
        #expect(older.statistics.unknownChanges == [Self.unknownKind: 2])
        let skips = recorded.messages.update { $0 }.filter { $0.contains("does not know") }
        #expect(skips.count == 1, "one line for the kind, not one per entry: \(skips)")
        #expect(recorded.messages.update { $0 }.filter { $0.contains("no longer holds") }.isEmpty, "no gap was seen")

        // A node that starts now loads `latest` with the entry it does not know, and opens.
        let later = try RedisChangeLog.opened(settings: settings, logger: quiet)
        defer { later.close() }
        #expect(later.lastSeq == 6)
        #expect(later.current("orders")?.value == 42)
    }

    @Test("a node starts on a stream that holds a page and more of entries of a kind it does not know")
    func startsPastUnknownKinds() async throws {
        let redis = try RedisServerProcess.forChangeLog()
        let settings = RedisSettings(url: redis.url, keyPrefix: "test")
        var quiet = Logger(label: "test.redis")
        quiet.logLevel = .critical
        let raw = RedisConnection(configuration: .init(url: try RedisURL(redis.url)), logger: quiet)
        defer { raw.close() }
        await connect(raw)
        let script = """
            for i = 1, 1001 do redis.call('XADD', KEYS[1], '*', 's', tostring(i), 'r', ARGV[1]) end
            redis.call('SET', KEYS[2], '1001')
            redis.call('HSET', KEYS[3], '_seq', '1001')
            return 1
            """
        let added = await send(
            raw, ["EVAL", script, "3", "{test}:changes", "{test}:seq", "{test}:latest"], [Self.unknownKind, 1])
        #expect(added.integerValue == 1)
        let node = try RedisChangeLog.opened(settings: settings, logger: quiet)
        defer { node.close() }
        #expect(node.lastSeq == 1001)
        let last = await append(node, "orders", 5)
        #expect((try? last.get())?.first?.seq == 1002)
        #expect(await node.waitForChanges { node.current("orders")?.value == 5 })
    }

    private func append(_ log: RedisChangeLog, _ id: String, _ value: Double) async -> Result<[StoredMetric], StoreError> {
        await withCheckedContinuation { continuation in
            log.append([MetricUpdate(id: id, value: value)]) { continuation.resume(returning: $0) }
        }
    }

    private func connect(_ connection: RedisConnection) async {
        await withCheckedContinuation { continuation in connection.connect { _ in continuation.resume() } }
    }

    /// Sends `command` with `bytes` as its last argument (when given); the reply, or `.null` on failure.
    private func send(_ connection: RedisConnection, _ command: [String], _ bytes: [UInt8]? = nil) async -> RedisReply {
        let arguments = command.map { Array($0.utf8) } + (bytes.map { [$0] } ?? [])
        return await withCheckedContinuation { continuation in
            connection.send(arguments) { result in continuation.resume(returning: (try? result.get()) ?? .null) }
        }
    }
}

/// How an entry of a kind this node does not know is told from one it reads and from garbage, without Redis.
struct UnknownChangeKindDecodingTests {
    static func entry(seq: String, payload: [UInt8]) -> RedisReply {
        .array([.bulk(Array("1-0".utf8)), .array([.bulk(Array("s".utf8)), .bulk(Array(seq.utf8)), .bulk(Array("r".utf8)), .bulk(payload)])])
    }

    static let known = StoreChange.metrics([MetricUpdate(id: "orders", value: 4).stored]).payload

    @Test(
        "an entry is read, or passed over as a kind this node does not know, or refused as garbage",
        arguments: [
            (entry(seq: "3", payload: known), true, nil),
            (entry(seq: "3", payload: [0xEE, 1, 2]), false, UInt8(0xEE)),
            (entry(seq: "3", payload: []), false, nil),
            (entry(seq: "0", payload: [0xEE]), false, nil),
            (entry(seq: "x", payload: [0xEE]), false, nil),
            (entry(seq: "3", payload: Array(known.dropLast())), false, nil),
        ] as [(RedisReply, Bool, UInt8?)])
    func entries(entry: RedisReply, isRead: Bool, unknownKind: UInt8?) {
        #expect((RedisKeys.decodeEntry(entry) != nil) == isRead)
        #expect(RedisKeys.decodeUnknownEntry(entry)?.kind == unknownKind)
        if let unknown = RedisKeys.decodeUnknownEntry(entry) { #expect(unknown.firstSeq == 3 && unknown.id == "1-0") }
    }

    @Test("latest values leave out a field of a kind this node does not know, and still refuse garbage")
    func latest() throws {
        let fields: [String: [UInt8]] = ["m:orders": Array("7:".utf8) + Self.known, "x:new": Array("8:".utf8) + [0xEE, 9], "_seq": Array("8".utf8)]
        let reply = RedisReply.array(fields.flatMap { [RedisReply.bulk(Array($0.key.utf8)), .bulk($0.value)] })
        let latest = try #require(RedisKeys.decodeLatest(reply))
        #expect(latest.records.map(\.lastSeq) == [7])
        #expect(latest.lastSeq == 8)
        let garbled = RedisReply.array([.bulk(Array("m:orders".utf8)), .bulk(Array("7:".utf8) + Self.known.dropLast())])
        #expect(RedisKeys.decodeLatest(garbled) == nil)
    }
}
