import Logging
import Testing

@testable import RollboardConfig
@testable import RollboardRedisLog
import RollboardRedis
import RollboardTestSupport

/// The nodes' screen lists in a real redis-server: written only while watched, read back until their time passes.
@Suite("Redis screen lists", .serialized, .enabled(if: RedisServerProcess.shouldRun))
struct RedisScreenListsTests {
    @Test("nobody has asked for the cluster's screens until a read marks them watched, and a list is read back only while it is good")
    func watchedAndGood() async throws {
        let redis = try RedisServerProcess.forChangeLog()
        var quiet = Logger(label: "test.redis")
        quiet.logLevel = .critical
        let log = try RedisChangeLog.opened(settings: RedisSettings(url: redis.url, keyPrefix: "test"), logger: quiet)
        defer { log.close() }
        let lists = RedisScreenLists(link: log)

        #expect(await watched(lists) == false, "a fresh cluster: no node is asked to publish")
        let first = try await read(lists).get()
        #expect(!first.wasWatched && first.lists.isEmpty)
        #expect(await watched(lists) == true, "the read asks every node to publish")

        #expect(await publish(lists, "one#1", "[1]", milliseconds: 60_000))
        #expect(await publish(lists, "two#2", "[2]", milliseconds: 0), "a list good for no time at all")
        let second = try await read(lists).get()
        #expect(second.wasWatched)
        #expect(second.lists.map(\.id) == ["one#1"] && second.lists.map(\.list) == ["[1]"])
        #expect(await publish(lists, "two#2", "[2, 3]", milliseconds: 60_000))
        #expect(try await read(lists).get().lists.map(\.id).sorted() == ["one#1", "two#2"], "a node publishing again is back")
    }

    private func watched(_ lists: RedisScreenLists) async -> Bool? {
        await withCheckedContinuation { continuation in lists.isWatched { continuation.resume(returning: $0) } }
    }

    private func read(_ lists: RedisScreenLists) async -> Result<RedisScreenLists.Found, RedisError> {
        await withCheckedContinuation { continuation in
            lists.read(watchMilliseconds: 60_000) { continuation.resume(returning: $0) }
        }
    }

    private func publish(_ lists: RedisScreenLists, _ id: String, _ list: String, milliseconds: Int) async -> Bool {
        await withCheckedContinuation { continuation in
            lists.publish(id, list: list, milliseconds: milliseconds) { continuation.resume(returning: $0) }
        }
    }
}
