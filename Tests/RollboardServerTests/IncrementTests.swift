import Foundation
import Logging
import RollboardClient
import RollboardNet
import RollboardRedis
import RollboardAnimation
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

/// Increments and idempotency keys through both change logs (the journal and a real `redis-server`): totals in the
/// log's order, retries answered from memory with nothing applied, remembered across a restart and a compaction,
/// refusals that store nothing.
@Suite("Increments and idempotent retries", .serialized)
struct IncrementTests {
    typealias Backend = ChangeLogContractTests.Backend
    typealias Fixture = ChangeLogContractTests.Fixture

    static func commit(
        _ log: any ChangeLog, _ request: MetricCommitRequest
    ) async -> Result<MetricCommitOutcome, MetricCommitError> {
        await withCheckedContinuation { continuation in
            log.commitMetrics(request) { continuation.resume(returning: $0) }
        }
    }

    static func increment(_ id: String, _ amount: Double, eventID: String? = nil) -> StoredMetric {
        StoredMetric(id: id, value: 0, seq: 0, updatedAt: 0, increment: amount, eventID: eventID)
    }

    static func value(_ id: String, _ value: Double, eventID: String? = nil) -> StoredMetric {
        StoredMetric(id: id, value: value, seq: 0, updatedAt: 0, eventID: eventID)
    }

    @Test(
        "increments add up in the log's order, a batch builds on its own earlier items, and each answer carries its total",
        arguments: Backend.available)
    func totals(backend: Backend) async throws {
        try await ChangeLogContractTests.Fixture.withLog(backend) { (_, log) async throws in
            let first = try await Self.commit(log, MetricCommitRequest(metrics: [Self.value("revenue", 10)])).get()
            #expect(first.metrics.map(\.value) == [10])
            let batch = try await Self.commit(
                log,
                MetricCommitRequest(metrics: [
                    Self.increment("revenue", 3), Self.increment("orders", 2), Self.increment("revenue", 2.5),
                    Self.value("visitors", 7), Self.increment("visitors", -1),
                ])
            ).get()
            #expect(batch.metrics.map(\.value) == [13, 2, 15.5, 7, 6])
            #expect(batch.metrics.map(\.seq) == [2, 3, 4, 5, 6])
            #expect(batch.metrics.map(\.increment) == [3, 2, 2.5, nil, -1])
            #expect(batch.replayed == [false, false, false, false, false])
            #expect(await log.waitForChanges { log.lastSeq == 6 })
            #expect(log.current("revenue")?.value == 15.5)
            #expect(log.current("orders")?.value == 2, "an increment of a metric never set counts from 0")
            #expect(log.current("visitors")?.value == 6)
        }
    }

    @Test(
        "a retried Idempotency-Key gets the first answer and seq and applies nothing; another request under it is refused",
        arguments: Backend.available)
    func retriedRequestKey(backend: Backend) async throws {
        try await ChangeLogContractTests.Fixture.withLog(backend) { (_, log) async throws in
            let request = MetricCommitRequest(metrics: [Self.increment("orders", 3)], requestKey: "order-41")
            let first = try await Self.commit(log, request).get()
            #expect(first.metrics.map(\.value) == [3])
            #expect(first.replayed == [false])
            for _ in 0..<3 {
                let again = try await Self.commit(log, request).get()
                #expect(again.metrics.map(\.value) == [3])
                #expect(again.metrics.map(\.seq) == first.metrics.map(\.seq))
                #expect(again.replayed == [true])
            }
            let other = await Self.commit(
                log, MetricCommitRequest(metrics: [Self.increment("orders", 4)], requestKey: "order-41"))
            guard case .failure(.refused(nil, "Idempotency-Key", let reason)) = other else {
                Issue.record("a different request under a used key: \(other)")
                return
            }
            #expect(reason.contains("different request"))
            let next = try await Self.commit(log, MetricCommitRequest(metrics: [Self.increment("orders", 1)])).get()
            #expect(next.metrics.map(\.value) == [4], "the retries added nothing")
            #expect(next.metrics.map(\.seq) == [2], "and used no sequence number")
        }
    }

    @Test(
        "a batch item whose eventId was seen is answered from memory while the others are applied",
        arguments: Backend.available)
    func eventIDs(backend: Backend) async throws {
        try await ChangeLogContractTests.Fixture.withLog(backend) { (_, log) async throws in
            let first = try await Self.commit(
                log,
                MetricCommitRequest(metrics: [
                    Self.increment("orders", 1, eventID: "e1"), Self.increment("orders", 1, eventID: "e2"),
                ])
            ).get()
            #expect(first.metrics.map(\.value) == [1, 2])
            let mixed = try await Self.commit(
                log,
                MetricCommitRequest(metrics: [
                    Self.increment("orders", 1, eventID: "e2"), Self.increment("orders", 1, eventID: "e3"),
                ])
            ).get()
            #expect(mixed.metrics.map(\.value) == [2, 3])
            #expect(mixed.metrics.map(\.seq) == [2, 3])
            #expect(mixed.replayed == [true, false])
            let all = try await Self.commit(
                log,
                MetricCommitRequest(metrics: [
                    Self.increment("orders", 1, eventID: "e1"), Self.increment("orders", 1, eventID: "e3"),
                ])
            ).get()
            #expect(all.metrics.map(\.seq) == [1, 3])
            #expect(all.replayed == [true, true])
            let misuse = await Self.commit(log, MetricCommitRequest(metrics: [Self.increment("revenue", 1, eventID: "e1")]))
            #expect(
                misuse
                    == .failure(
                        .refused(
                            item: 0, field: "eventId", reason: "\"e1\" was used within the last day for a different update")
                    ))
            #expect(await log.waitForChanges { log.lastSeq == 3 })
            #expect(log.current("orders")?.value == 3)
        }
    }

    @Test("the same key sent twice at once is applied once", arguments: Backend.available)
    func concurrentRetries(backend: Backend) async throws {
        try await ChangeLogContractTests.Fixture.withLog(backend) { (_, log) async throws in
            let outcomes = await withTaskGroup(of: Result<MetricCommitOutcome, MetricCommitError>.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        await Self.commit(
                            log, MetricCommitRequest(metrics: [Self.increment("orders", 5)], requestKey: "same"))
                    }
                }
                var all: [Result<MetricCommitOutcome, MetricCommitError>] = []
                for await outcome in group { all.append(outcome) }
                return all
            }
            let answers = try outcomes.map { try $0.get() }
            #expect(Set(answers.map(\.seq)) == [1])
            #expect(answers.filter { $0.replayed == [false] }.count == 1)
            #expect(answers.allSatisfy { $0.metrics.map(\.value) == [5] })
            #expect(await log.waitForChanges { log.lastSeq == 1 })
        }
    }

    @Test(
        "a total the tiles cannot show, or one that is not finite, is refused naming the item and field; nothing is stored",
        arguments: Backend.available)
    func refusedTotals(backend: Backend) async throws {
        try await ChangeLogContractTests.Fixture.withLog(backend) { (_, log) async throws in
            let problem: @Sendable (String, Double) -> String? = { _, total in total > 100 ? "at most 100" : nil }
            _ = try await Self.commit(log, MetricCommitRequest(metrics: [Self.value("orders", 99)], problem: problem)).get()
            let tooLarge = await Self.commit(
                log,
                MetricCommitRequest(
                    metrics: [Self.increment("revenue", 1), Self.increment("orders", 2, eventID: "x")], requestKey: "k",
                    problem: problem))
            #expect(
                tooLarge
                    == .failure(.refused(item: 1, field: "increment", reason: "the total 101 cannot be shown: at most 100"))
            )
            _ = try await Self.commit(log, MetricCommitRequest(metrics: [Self.value("revenue", .greatestFiniteMagnitude)]))
                .get()
            let infinite = await Self.commit(
                log, MetricCommitRequest(metrics: [Self.increment("revenue", .greatestFiniteMagnitude)]))
            #expect(
                infinite
                    == .failure(.refused(item: 0, field: "increment", reason: "the total would not be a finite number")))
            #expect(await log.waitForChanges { log.lastSeq == 2 })
            // Neither the key nor the event id of the refused batch was remembered.
            let later = try await Self.commit(
                log, MetricCommitRequest(metrics: [Self.increment("orders", 1, eventID: "x")], requestKey: "k")
            ).get()
            #expect(later.metrics.map(\.value) == [100])
            #expect(later.replayed == [false])
        }
    }

    @Test(
        "remembered keys survive a restart (and, for the journal, a compaction into the snapshot)",
        arguments: Backend.available)
    func survivesRestart(backend: Backend) async throws {
        let fixture = try Fixture(backend)
        var log = try fixture.open()
        let request = MetricCommitRequest(
            metrics: [Self.increment("orders", 2, eventID: "a"), Self.increment("orders", 3)], requestKey: "batch-1")
        let first = try await Self.commit(log, request).get()
        if let store = log as? MetricStore { await store.compact() }
        _ = try await Self.commit(log, MetricCommitRequest(metrics: [Self.increment("orders", 1, eventID: "b")])).get()
        #expect(await log.waitForChanges { log.lastSeq == 3 })
        log.close()
        log = try fixture.open()
        defer { log.close() }
        let again = try await Self.commit(log, request).get()
        #expect(again.metrics.map { [$0.id, "\($0.value)", "\($0.seq)"] } == first.metrics.map { [$0.id, "\($0.value)", "\($0.seq)"] })
        #expect(again.replayed == [true, true])
        let event = try await Self.commit(
            log, MetricCommitRequest(metrics: [Self.increment("orders", 1, eventID: "b")])
        ).get()
        #expect(event.metrics.map(\.seq) == [3])
        #expect(event.replayed == [true])
        #expect(log.current("orders")?.value == 6)
        #expect(log.lastSeq == 3)
    }

    @Test("the journal forgets a key a day after the commit that used it")
    func journalForgetsAfterADay() async throws {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        let now = Synchronized(1_800_000_000.0)
        let store = try MetricStore(
            directory: folder.path, logger: Logger(label: "test"), clock: { now.update { $0 } }, faults: nil)
        defer { store.close() }
        let request = MetricCommitRequest(metrics: [Self.increment("orders", 1)], requestKey: "daily")
        _ = try await Self.commit(store, request).get()
        try await Self.expectForgottenAfterADay(request, by: store, clock: now)
    }

    @Test("Redis forgets a key a day after its commit, and keeps its keys in one hash with their order")
    func redisExpiry() async throws {
        guard RedisServerProcess.shouldRun else { return }
        let fixture = try Fixture(.redis)
        let now = Synchronized(1_800_000_000.0)
        let log = try RedisChangeLog.opened(
            settings: RedisSettings(url: fixture.redis!.url, keyPrefix: "contract"), logger: fixture.logger,
            clock: { now.update { $0 } })
        defer { log.close() }
        let request = MetricCommitRequest(metrics: [Self.increment("orders", 1, eventID: "ttl-e")], requestKey: "ttl-r")
        _ = try await Self.commit(log, request).get()
        let raw = RedisConnection(
            configuration: .init(url: try RedisURL(fixture.redis!.url)), logger: Logger(label: "test"))
        defer { raw.close() }
        let fields = await withCheckedContinuation { continuation in
            raw.connect { _ in raw.send(["HKEYS", "{contract}:idem"]) { continuation.resume(returning: $0) } }
        }
        guard case .success(.array(let names)) = fields else { Issue.record("\(fields)"); return }
        #expect(Set(names.compactMap(\.string)) == ["r:ttl-r", "e:ttl-e"])
        try await Self.expectForgottenAfterADay(request, by: log, clock: now)
    }

    /// A request `log` committed once (at `clock`'s time) is answered from memory until a day has passed, then
    /// applied anew (a keyed commit first forgets what is a day old).
    static func expectForgottenAfterADay(
        _ request: MetricCommitRequest, by log: any ChangeLog, clock now: Synchronized<Double>
    ) async throws {
        now.update { $0 += IdempotencyMemory.lifetime - 1 }
        #expect(try await commit(log, request).get().replayed == [true])
        now.update { $0 += 1 }
        let forgotten = try await commit(log, request).get()
        #expect(forgotten.replayed == [false])
        #expect(forgotten.metrics.map(\.value) == [2])
    }

    @Test("three nodes on one Redis taking increments round-robin, all at once, agree on the exact total")
    func threeNodes() async throws {
        guard RedisServerProcess.shouldRun else { return }
        let fixture = try Fixture(.redis)
        let nodes = try (0..<3).map { _ in try fixture.open() }
        defer { for node in nodes { node.close() } }
        let amounts = (1...90).map { Double($0) / 4 }
        let answers = await withTaskGroup(of: Result<MetricCommitOutcome, MetricCommitError>.self) { group in
            for (index, amount) in amounts.enumerated() {
                group.addTask {
                    await Self.commit(
                        nodes[index % 3], MetricCommitRequest(metrics: [Self.increment("orders", amount)]))
                }
            }
            var all: [Result<MetricCommitOutcome, MetricCommitError>] = []
            for await answer in group { all.append(answer) }
            return all
        }
        let committed = try answers.map { try $0.get().metrics[0] }.sorted { $0.seq < $1.seq }
        let expected = amounts.reduce(0, +)
        #expect(committed.last?.value == expected)
        // Each answer's total is the previous one's plus its own increment: none was lost or counted twice.
        for (previous, next) in zip(committed, committed.dropFirst()) {
            #expect(next.value == previous.value + next.increment!)
        }
        for node in nodes {
            #expect(await node.waitForChanges { node.current("orders")?.value == expected })
            #expect(node.lastSeq == UInt64(amounts.count))
        }
    }

    @Test("a plain batch keeps kind 1 byte for byte; a batch with an increment or a key is kind 9 and reads back whole")
    func codec() throws {
        let plain = StoreChange.metrics([StoredMetric(id: "a", value: 1, seq: 3, updatedAt: 5)])
        #expect(plain.payload.first == 1)
        var metric = StoredMetric(id: "a", value: 4, seq: 3, updatedAt: 5, interval: 2, animated: false)
        metric.increment = 1.5
        metric.eventID = "ev"
        metric.requestKey = "rk"
        let extended = StoreChange.metrics([metric, StoredMetric(id: "b", value: 2, seq: 4, updatedAt: 5)])
        #expect(extended.payload.first == 9)
        #expect(StoreChange(payload: extended.payload[...]) == extended)
        #expect(StoreChange(payload: plain.payload[...]) == plain)
    }
}
