import Foundation
import Logging
import RollboardAnimation
import RollboardRedis
import RollboardTestSupport
import Testing

@testable import RollboardCore
@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardMetrics
@testable import RollboardRedisLog
@testable import RollboardAccess
@testable import RollboardHub
@testable import RollboardSources
@testable import RollboardAPI
@testable import RollboardServer

/// Leaderboard edits through both change logs: increments resolved in the log's order add up exactly, however many
/// writers (nodes) post at once, and a node that catches up from Redis's latest-values hash alone has the same board.
@Suite("Leaderboard change log", .serialized)
struct LeaderboardChangeLogTests {
    typealias Backend = ChangeLogContractTests.Backend

    private func commit(_ log: any ChangeLog, _ id: String, _ edit: LeaderboardEdit, limit: Int = 1_000) async
        -> Result<StoredLeaderboard, LeaderboardCommitError>
    {
        await commit(log, LeaderboardCommitRequest(id: id, edit: edit, limit: limit)).map(\.board)
    }

    private func commit(_ log: any ChangeLog, _ request: LeaderboardCommitRequest) async
        -> Result<LeaderboardCommitOutcome, LeaderboardCommitError>
    {
        await withCheckedContinuation { continuation in
            log.commitLeaderboard(request) { continuation.resume(returning: $0) }
        }
    }

    private static func board(_ pairs: KeyValuePairs<String, Double>) -> [LeaderboardEntry] {
        pairs.map { LeaderboardEntry(name: $0.key, value: $0.value) }
    }

    /// Runs `body` with two writers of one leaderboard: two Redis nodes, or the one journal twice (a journal has one
    /// writer).
    private func withWriters(_ backend: Backend, _ body: (any ChangeLog, any ChangeLog) async throws -> Void)
        async throws
    {
        let fixture = try ChangeLogContractTests.Fixture(backend)
        let first = try fixture.open()
        let second = backend == .redis ? try fixture.open() : first
        defer {
            first.close()
            if backend == .redis { second.close() }
        }
        try await body(first, second)
    }

    /// The entries as a dictionary, so boards compare whatever their order.
    private static func scores(_ board: StoredLeaderboard?) -> [String: Double] {
        Dictionary(uniqueKeysWithValues: (board?.entries ?? []).map { ($0.name, $0.value) })
    }

    @Test("increments posted at once by two writers (two Redis nodes, or one journal) add up to the exact totals",
          arguments: Backend.available)
    func concurrentIncrements(backend: Backend) async throws {
        try await withWriters(backend) { (first, second) async throws in
            _ = try await commit(first, "sales", .replace(Self.board(["Alice": 100, "Bob": 50]))).get()
            let perWriter = 25
            let seqs = try await withThrowingTaskGroup(of: UInt64.self) { group in
                for index in 0..<(2 * perWriter) {
                    let log = index % 2 == 0 ? first : second
                    let edit = LeaderboardEdit.increment(Self.board(["Alice": 1, "Carol": 0.5]))
                    group.addTask { try await commit(log, "sales", edit).get().seq }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(Set(seqs).count == 2 * perWriter, "every increment is its own change")
            let expected: [String: Double] = ["Alice": 150, "Bob": 50, "Carol": 25]
            let last = try #require(seqs.max())
            for log in [first, second] {
                #expect(await log.waitForChanges { log.lastSeq >= last })
                #expect(Self.scores(log.leaderboard("sales")) == expected)
            }
        }
    }

    @Test("an edit whose board would hold more than the limit is refused naming the field, and nothing is stored",
          arguments: Backend.available)
    func limit(backend: Backend) async throws {
        try await ChangeLogContractTests.Fixture.withLog(backend) { (_, log) async throws in
            let stored = try await commit(log, "sales", .replace(Self.board(["Alice": 1, "Bob": 2])), limit: 2).get()
            #expect(await log.waitForChanges { log.lastSeq == stored.seq })
            let refused = await commit(log, "sales", .increment(Self.board(["Carol": 1])), limit: 2)
            guard case .failure(.refused(let refusal)) = refused else {
                Issue.record("expected a refusal, got \(refused)")
                return
            }
            #expect(refusal.field == "increment")
            let marker = try await withCheckedContinuation { continuation in
                log.commit(.text(StoredText(id: "notice", text: "after", seq: 0, updatedAt: 0))) { continuation.resume(returning: $0) }
            }.get()
            #expect(marker.lastSeq == stored.seq + 1, "the refused edit took no sequence number")
            #expect(Self.scores(log.leaderboard("sales")) == ["Alice": 1, "Bob": 2])
        }
    }

    @Test("an edit the backend cannot make durable is refused and left out of every later total",
          arguments: Backend.available)
    func refusedUnderFaults(backend: Backend) async throws {
        try await ChangeLogContractTests.Fixture.withLog(backend) { (fixture, log) async throws in
            _ = try await commit(log, "sales", .replace(Self.board(["Alice": 1]))).get()
            fixture.breakDown()
            let refused = await commit(log, "sales", .increment(Self.board(["Alice": 100])))
            guard case .failure(.store) = refused else {
                Issue.record("expected the store to refuse, got \(refused)")
                return
            }
            try fixture.heal()
            var again: StoredLeaderboard?
            let deadline = Date().addingTimeInterval(20)
            while again == nil, Date() < deadline {
                if case .success(let board) = await commit(log, "sales", .increment(Self.board(["Alice": 2]))) { again = board }
                try? await Task.sleep(for: .milliseconds(100))
            }
            let board = try #require(again, "the log takes edits again once the backend is back")
            #expect(Self.scores(board) == ["Alice": 3], "the refused increment is in no total")
        }
    }

    @Test("a retry with the same Idempotency-Key, on this node or another, gets the first board and seq and adds nothing",
          arguments: Backend.available)
    func idempotentRetry(backend: Backend) async throws {
        try await withWriters(backend) { (first, second) async throws in
            _ = try await commit(first, "sales", .replace(Self.board(["Alice": 10]))).get()
            let retried = LeaderboardCommitRequest(
                id: "sales", edit: .increment(Self.board(["Alice": 5, "Bob": 1])), limit: 1_000, requestKey: "sale-42")
            let original = try await commit(first, retried).get()
            #expect(!original.replayed && Self.scores(original.board) == ["Alice": 15, "Bob": 1])
            _ = try await commit(first, "sales", .increment(Self.board(["Alice": 1]))).get()
            for log in [first, second] {
                let again = try await commit(log, retried).get()
                #expect(again.replayed, "a retry is answered, not applied")
                #expect(again.board.seq == original.board.seq && Self.scores(again.board) == ["Alice": 15, "Bob": 1])
            }
            let marker = try await withCheckedContinuation { continuation in
                first.commit(.text(StoredText(id: "notice", text: "after", seq: 0, updatedAt: 0))) {
                    continuation.resume(returning: $0)
                }
            }.get()
            #expect(marker.lastSeq == original.board.seq + 2, "the retries took no sequence number")
            for log in [first, second] {
                #expect(await log.waitForChanges { log.lastSeq >= marker.lastSeq })
                #expect(Self.scores(log.leaderboard("sales")) == ["Alice": 16, "Bob": 1], "counted once")
            }
        }
    }

    @Test("an Idempotency-Key used again for a different edit or board is refused naming it, and nothing is stored",
          arguments: Backend.available)
    func keyReusedForAnotherRequest(backend: Backend) async throws {
        try await ChangeLogContractTests.Fixture.withLog(backend) { (_, log) async throws in
            let used = try await commit(
                log, LeaderboardCommitRequest(id: "sales", edit: .increment(Self.board(["Alice": 1])), limit: 10, requestKey: "k")
            ).get()
            for other in [
                LeaderboardCommitRequest(id: "sales", edit: .increment(Self.board(["Alice": 2])), limit: 10, requestKey: "k"),
                LeaderboardCommitRequest(id: "team", edit: .increment(Self.board(["Alice": 1])), limit: 10, requestKey: "k"),
                LeaderboardCommitRequest(id: "sales", edit: .replace(Self.board(["Alice": 1])), limit: 10, requestKey: "k"),
            ] {
                let refused = await commit(log, other)
                guard case .failure(.refused(let refusal)) = refused else {
                    Issue.record("expected a refusal, got \(refused)")
                    continue
                }
                #expect(refusal.field == "Idempotency-Key")
            }
            #expect(log.lastSeq == used.board.seq && log.leaderboard("team") == nil)
            #expect(Self.scores(log.leaderboard("sales")) == ["Alice": 1])
        }
    }

    @Test("the journal remembers a board's Idempotency-Key across a restart, from the journal and from the snapshot",
          arguments: [false, true])
    func keyAcrossRestart(compacted: Bool) async throws {
        let fixture = try ChangeLogContractTests.Fixture(.journal)
        let store = try #require(try fixture.open() as? MetricStore)
        let request = LeaderboardCommitRequest(
            id: "sales", edit: .increment(Self.board(["Alice": 3])), limit: 10, requestKey: "retry-me")
        let original = try await commit(store, request).get()
        if compacted { await store.compact() }
        store.close()
        let reopened = try fixture.open()
        defer { reopened.close() }
        let again = try await commit(reopened, request).get()
        #expect(again.replayed && again.board.withoutRequest == original.board.withoutRequest)
        #expect(Self.scores(reopened.leaderboard("sales")) == ["Alice": 3])
    }

    @Test("the journal's snapshot keeps each board: after a compaction and a restart the totals go on from it")
    func snapshot() async throws {
        let fixture = try ChangeLogContractTests.Fixture(.journal)
        let store = try #require(try fixture.open() as? MetricStore)
        _ = try await commit(store, "sales", .replace(Self.board(["Alice": 4, "Bob": 7])))
        _ = try await commit(store, "team", .replace(Self.board(["Zoe": 1])))
        _ = try await commit(store, "sales", .increment(Self.board(["Alice": 5]))).get()
        await store.compact()
        store.close()
        let reopened = try fixture.open()
        defer { reopened.close() }
        #expect(Self.scores(reopened.leaderboard("sales")) == ["Alice": 9, "Bob": 7])
        #expect(Self.scores(reopened.leaderboard("team")) == ["Zoe": 1])
        let next = try await commit(reopened, "sales", .increment(Self.board(["Bob": 3]))).get()
        #expect(Self.scores(next) == ["Alice": 9, "Bob": 10] && next.seq == 4)
    }

    @Test("a node that catches up from the latest-values hash after the stream was trimmed has the same totals")
    func trimmedStream() async throws {
        guard RedisServerProcess.shouldRun else { return }
        let redis = try RedisServerProcess.forChangeLog()
        var logger = Logger(label: "test.leaderboard")
        logger.logLevel = .critical
        let settings = RedisSettings(url: redis.url, keyPrefix: "trim")
        let writer = try RedisChangeLog.opened(settings: settings, logger: logger)
        defer { writer.close() }
        _ = try await commit(writer, "sales", .replace(Self.board(["Alice": 10, "Bob": 20]))).get()
        for _ in 0..<5 { _ = try await commit(writer, "sales", .increment(Self.board(["Alice": 3]))).get() }
        let raw = RedisConnection(configuration: .init(url: try RedisURL(redis.url)), logger: logger)
        defer { raw.close() }
        let trimmed = await withCheckedContinuation { continuation in
            raw.connect { _ in raw.send(["XTRIM", "{trim}:changes", "MAXLEN", "0"]) { continuation.resume(returning: $0) } }
        }
        #expect((try? trimmed.get())?.integerValue == 6, "the stream held the six changes and holds none now")

        let joining = try RedisChangeLog.opened(settings: settings, logger: logger)
        defer { joining.close() }
        #expect(Self.scores(joining.leaderboard("sales")) == ["Alice": 25, "Bob": 20])
        let next = try await commit(joining, "sales", .increment(Self.board(["Bob": 1]))).get()
        #expect(Self.scores(next) == ["Alice": 25, "Bob": 21])
    }
}
