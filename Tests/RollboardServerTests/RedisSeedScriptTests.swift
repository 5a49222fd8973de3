import Logging
import Testing

@testable import RollboardRedisLog
@testable import RollboardStore
import RollboardRedis
import RollboardTestSupport

/// The recovery's scripts on a real Redis: a seed writes what a node holds so that an opening reads it back, and is
/// refused while a node that saw more has reported.
@Suite("Redis seed script", .serialized, .enabled(if: RedisServerProcess.shouldRun))
struct RedisSeedScriptTests {
    static let keys = RedisKeys(prefix: "seed")

    /// A node that applied four changes: `orders` twice, `revenue`, a board.
    static func model() -> StoreModel {
        var model = RedisChangeLog.emptyModel(historyLimit: 10, seriesLimits: SeriesLimits())
        model.apply(.metrics([StoredMetric(id: "orders", value: 3, seq: 1, updatedAt: 1)]))
        model.apply(.metrics([StoredMetric(id: "revenue", value: 70, seq: 2, updatedAt: 2)]))
        model.apply(.metrics([StoredMetric(id: "orders", value: 5, seq: 3, updatedAt: 3)]))
        model.apply(.leaderboard(StoredLeaderboard(id: "top", entries: [], seq: 4, updatedAt: 4)))
        return model
    }

    private func send(_ connection: RedisConnection, _ arguments: [[UInt8]]) async -> RedisReply? {
        await withCheckedContinuation { continuation in
            connection.send(arguments, timeout: 5) { continuation.resume(returning: try? $0.get()) }
        }
    }

    private func send(_ connection: RedisConnection, _ arguments: String...) async -> RedisReply? {
        await send(connection, arguments.map { Array($0.utf8) })
    }

    @Test(
        "a seed writes the latest values, the sequence and the epoch last; a report ahead of the node refuses it and frees the lease",
        arguments: [false, true])
    func seed(reportAhead: Bool) async throws {
        let redis = try RedisServerProcess()
        let raw = RedisConnection(configuration: .init(url: try RedisURL(redis.url)), logger: Logger(label: "test"))
        defer { raw.close() }
        let connected = await withCheckedContinuation { continuation in
            raw.connect { continuation.resume(returning: $0) }
        }
        #expect((try? connected.get()) != nil)
        let keys = Self.keys
        let report = reportAhead ? "9" : "2"
        // The report and the lease are kept a minute, long past the test on a busy machine (a 5-second lease once ran
        // out before the seed came: the seed answered that the lease was not its own).
        _ = await send(raw, "EVAL", RedisKeys.reportScript, "1", keys.recoveryPositions, "other", report, "60000")
        #expect(await send(raw, "SET", keys.recoveryLease, "me", "NX", "PX", "60000")?.string == "OK")
        let model = Self.model()
        let answer = await send(raw, keys.seedCommand(epoch: "old", newEpoch: "new", token: "me", model: model))
        guard case .array(let parts)? = answer else {
            Issue.record("the seed script answered \(String(describing: answer))")
            return
        }
        if reportAhead {
            #expect(parts.first?.integerValue == -2 && parts.last?.string == "9")
            #expect(await send(raw, "GET", keys.recoveryLease) == .null, "the lease is given back")
            #expect(await send(raw, "GET", keys.epoch) == .null, "nothing written")
            return
        }
        #expect(parts.first?.integerValue == 1 && parts.last?.string == "new")
        #expect(await send(raw, "GET", keys.epoch)?.string == "new")
        #expect(await send(raw, "GET", keys.sequence)?.string == "4")
        #expect(await send(raw, "GET", keys.recoverySeed)?.string == "new 4")
        #expect(await send(raw, "GET", keys.recoveryLease) == .null)
        guard let reply = await send(raw, "HGETALL", keys.latest), let latest = RedisKeys.decodeLatest(reply) else {
            Issue.record("the latest-values hash does not read back")
            return
        }
        var adopted = RedisChangeLog.emptyModel(historyLimit: 10, seriesLimits: SeriesLimits())
        for record in latest.records { adopted.adopt(record) }
        let (seeded, held) = (StoreSnapshot(model: adopted), StoreSnapshot(model: model))
        #expect(latest.lastSeq == 4 && latest.records.count == 3)
        #expect(seeded.all() == held.all(), "every metric's latest value, with its sequence number")
        #expect(seeded.leaderboard("top") == held.leaderboard("top"))
    }
}
