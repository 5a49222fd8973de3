import Dispatch
import Foundation
import Logging
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
import RollboardClient
import RollboardNet
import RollboardRedis
import RollboardTestSupport

/// Two or three change logs on one real Redis act as the nodes of one cluster.
@Suite("Redis change log", .serialized, .enabled(if: RedisServerProcess.shouldRun))
struct RedisChangeLogTests {
    private static let logger: Logger = {
        var logger = Logger(label: "test.redis")
        logger.logLevel = .critical
        return logger
    }()

    private func node(_ redis: RedisServerProcess, prefix: String = "test") throws -> RedisChangeLog {
        try RedisChangeLog.opened(settings: RedisSettings(url: redis.url, keyPrefix: prefix), logger: Self.logger)
    }

    /// Runs `body` with a real Redis and two nodes on it, and closes the nodes afterwards; a `volatile` Redis persists
    /// nothing, so a restart empties it.
    private func withTwoNodes(
        volatile: Bool = false, _ body: (RedisServerProcess, RedisChangeLog, RedisChangeLog) async throws -> Void
    ) async throws {
        let redis = try volatile ? RedisServerProcess() : RedisServerProcess.forChangeLog()
        let a = try node(redis)
        let b = try node(redis)
        defer {
            a.close()
            b.close()
        }
        try await body(redis, a, b)
    }

    /// Runs `body` with a Redis server of its own and one node on it, closed afterwards.
    private func withNode(_ body: (RedisServerProcess, RedisChangeLog) async throws -> Void) async throws {
        let redis = try RedisServerProcess.forChangeLog()
        let a = try node(redis)
        defer { a.close() }
        try await body(redis, a)
    }

    /// Every change a node's subscribers are told of, in order.
    private func record(_ log: RedisChangeLog) -> HeardChanges {
        HeardChanges(log)
    }

    private func append(_ log: RedisChangeLog, _ id: String, _ value: Double) async -> Result<[StoredMetric], StoreError> {
        await withCheckedContinuation { continuation in
            log.append([MetricUpdate(id: id, value: value)]) { continuation.resume(returning: $0) }
        }
    }

    @Test("two nodes see every change, their own and the other's, in one order with one sequence")
    func oneOrder() async throws {
        try await withTwoNodes { redis, a, b throws in
            #expect(a.epoch == b.epoch)
            #expect(a.epoch.count == 16)
            let seenA = record(a)
            let seenB = record(b)
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<40 {
                    let writer = index % 2 == 0 ? a : b
                    group.addTask { _ = await append(writer, "m\(index % 3)", Double(index)) }
                }
            }
            let command = await withCheckedContinuation { continuation in
                b.commandCarousel("news", action: .goto(page: 2)) { continuation.resume(returning: $0) }
            }
            let slides = await withCheckedContinuation { continuation in
                a.setSlides("news", slides: [.text("Hello", color: nil)]) { continuation.resume(returning: $0) }
            }
            #expect((try? command.get())?.seq == 41)
            #expect((try? slides.get())?.seq == 42)
            #expect(await seenA.wait { seenA.all.count == 42 })
            #expect(await seenB.wait { seenB.all.count == 42 })
            let orderA = seenA.all
            #expect(orderA == seenB.all)
            #expect(orderA.map(\.lastSeq) == Array(1...42))
            #expect(orderA[40] == .carousel(try command.get()))
            #expect(a.current("m1") == b.current("m1"))
            #expect(a.lastSeq == 42 && b.lastSeq == 42)
        }
    }

    @Test("a node that starts later loads the latest values, texts, wheels and slides, and the shared epoch")
    func lateStart() async throws {
        try await withNode { (redis: RedisServerProcess, a: RedisChangeLog) async throws in
            _ = await append(a, "revenue", 10)
            let last = await append(a, "revenue", 20)
            _ = await withCheckedContinuation { continuation in
                a.setWheel("status", target: .index(2)) { continuation.resume(returning: $0) }
            }
            _ = await withCheckedContinuation { continuation in
                a.setText("notice", text: "Freeze", color: "#e67e22") { continuation.resume(returning: $0) }
            }
            let late = try node(redis)
            defer { late.close() }
            #expect(late.epoch == a.epoch)
            #expect(late.current("revenue") == (try last.get()).first)
            #expect(late.wheel("status")?.target == .index(2))
            #expect(late.text("notice")?.color == "#e67e22")
            #expect(late.lastSeq == 4)
            #expect(late.history("revenue").map(\.value) == [10, 20], "the history is read back from the stream")
            let seen = record(late)
            _ = await append(a, "revenue", 30)
            #expect(await seen.wait { seen.all.map(\.lastSeq) == [5] })
        }
    }

    @Test("a node that starts while Redis is away serves, refuses changes and is not live, then opens when Redis answers")
    func startWhileAway() async throws {
        let redis = try RedisServerProcess.forChangeLog()
        let a = try node(redis)
        let stored = try await append(a, "revenue", 42).get()
        a.close()
        redis.kill()

        let late = try RedisChangeLog(settings: RedisSettings(url: redis.url, keyPrefix: "test"), logger: Self.logger)
        defer { late.close() }
        let heard = record(late)
        let lateFeed = Changes()
        late.observeFeed { _ in lateFeed.changed() }
        late.start()  // returns at once: nothing here waits for Redis
        #expect(late.epoch == "" && !late.isFeedLive)
        #expect(late.failure != nil)
        let refused = await append(late, "revenue", 7)
        #expect(throws: StoreError.self) { try refused.get() }
        let notYet = "\(StoreError.unreachable(RedisLinkMachine.notOpenedYet))"
        #expect(await eventually(within: 3) { late.failure.map { "\($0)" != notYet } ?? false },
                "a failed opening says why")

        try redis.start()
        #expect(await lateFeed.wait { late.failure == nil && late.isFeedLive }, "opens once Redis answers")
        #expect(late.epoch == a.epoch)
        #expect(late.current("revenue")?.value == 42)
        let told = heard.all
        #expect(told.count == 1, "the loaded value is told once: \(told)")
        guard case .metrics(let metrics)? = told.first else {
            Issue.record("a metric change was told: \(told)")
            return
        }
        #expect(metrics.map(\.value) == [42] && metrics.map(\.seq) == stored.map(\.seq))
        #expect(metrics.allSatisfy { !$0.animated }, "a value loaded at opening stands; it is not a move")
        #expect((try await append(late, "revenue", 43).get()).first?.seq == (stored.first?.seq ?? 0) + 1)
    }

    @Test("an operator's playlist command reaches every node with the moment it was committed, and later nodes too")
    func playlistCommands() async throws {
        try await withTwoNodes { redis, a, b throws in
            let seenB = record(b)
            let held = try await withCheckedContinuation { continuation in
                a.commandPlaylist("wall", action: .show(entry: 1)) { continuation.resume(returning: $0) }
            }.get()
            #expect(held.seq == 1)
            #expect(await seenB.wait { seenB.all == [.playlist(held)] })
            #expect(b.snapshot.playlistCommands("wall") == [held])
            let late = try node(redis)
            defer { late.close() }
            #expect(late.snapshot.playlistCommands("wall") == [held], "a node that starts later reads it from the stream")
        }
    }

    @Test("an operator's announcement and reloads reach every node with the moment they were committed")
    func screenCommands() async throws {
        try await withTwoNodes { redis, a, b throws in
            let seenB = record(b)
            var commands: [StoredScreenCommand] = []
            for action in [
                StoredScreenCommand.Action.announce(dashboard: "demo", text: "Fire drill", seconds: 20),
                .reloadDashboard("demo"), .reloadPlaylist("wall"),
            ] {
                commands.append(try await withCheckedContinuation { continuation in
                    a.commandScreens(action) { continuation.resume(returning: $0) }
                }.get())
            }
            #expect(commands.map(\.seq) == [1, 2, 3])
            #expect(await seenB.wait { seenB.all == commands.map(StoreChange.screens) })
        }
    }

    @Test("a node that starts after the stream was trimmed takes the trimmed ids' latest values from the hash")
    func startAfterTrim() async throws {
        try await withNode { (redis: RedisServerProcess, a: RedisChangeLog) async throws in
            _ = await append(a, "revenue", 10)
            _ = await append(a, "orders", 5)
            _ = await append(a, "revenue", 20)
            let raw = RedisConnection(configuration: .init(url: try RedisURL(redis.url)), logger: Self.logger)
            defer { raw.close() }
            let trimmed = await withCheckedContinuation { continuation in
                raw.connect { _ in raw.send(["XTRIM", "{test}:changes", "MAXLEN", "0"]) { continuation.resume(returning: $0) } }
            }
            #expect((try? trimmed.get())?.integerValue == 3)
            _ = await append(a, "revenue", 30)
            let late = try node(redis)
            defer { late.close() }
            #expect(late.current("orders")?.value == 5)
            #expect(late.current("orders")?.seq == 2)
            #expect(late.history("revenue").map(\.value) == [30])
            #expect(late.lastSeq == 4)
        }
    }

    @Test("nodes with another key prefix are another cluster")
    func prefixes() async throws {
        let redis = try RedisServerProcess.forChangeLog()
        let a = try node(redis, prefix: "one")
        let b = try node(redis, prefix: "two")
        defer {
            a.close()
            b.close()
        }
        #expect(a.epoch != b.epoch)
        _ = await append(a, "revenue", 1)
        #expect(b.current("revenue") == nil)
        #expect(b.lastSeq == 0)
    }

    @Test("while Redis is down changes are refused as unreachable and screens hear the feed is stale; after, nothing acknowledged is lost")
    func outage() async throws {
        try await withTwoNodes { redis, a, b throws in
            // Each node drops its feed after it refuses changes, and takes it up again after it stopped refusing.
            let feed = Synchronized<[Bool]>([])
            let feeds = Changes()
            a.observeFeed { _ in feeds.changed() }
            b.observeFeed { live in
                feed.update { $0.append(live) }
                feeds.changed()
            }
            let seenB = record(b)
            var acknowledged: [UInt64] = []
            for value in 1...5 {
                if case .success(let stored) = await append(a, "orders", Double(value)) { acknowledged.append(stored[0].seq) }
            }
            redis.kill()
            let refused = await append(a, "orders", 99)
            guard case .failure(let error) = refused else {
                Issue.record("a change was accepted while Redis was down")
                return
            }
            #expect(error.isUnreachable)
            #expect(await feeds.wait { feed.update { $0 } == [false] && a.failure != nil })
            try redis.start()
            #expect(await feeds.wait(within: 15) { a.failure == nil && b.failure == nil && feed.update { $0 } == [false, true] })
            if case .success(let stored) = await append(a, "orders", 6) { acknowledged.append(stored[0].seq) }
            #expect(acknowledged == Array(1...6))
            #expect(await seenB.wait { seenB.all.map(\.lastSeq) == acknowledged })
            #expect(b.current("orders")?.value == 6)
            #expect(b.statistics.disconnections == 1)
        }
    }

    @Test("a Redis that comes back without its data is seeded by one node and adopted by the other: values go on")
    func historyLost() async throws {
        try await withTwoNodes(volatile: true) { (redis: RedisServerProcess, a: RedisChangeLog, b: RedisChangeLog) in
            _ = await append(a, "orders", 1)
            _ = await withCheckedContinuation { continuation in
                a.setWheel("status", target: .index(2)) { continuation.resume(returning: $0) }
            }
            _ = await withCheckedContinuation { continuation in
                b.setText("notice", text: "Freeze", color: "#e67e22") { continuation.resume(returning: $0) }
            }
            #expect(await b.waitForChanges { a.lastSeq == 3 && b.lastSeq == 3 })
            let epoch = a.epoch
            redis.kill()
            try redis.start()
            #expect(await eventually(within: 15) {
                a.epoch != epoch && a.epoch == b.epoch && a.failure == nil && b.failure == nil
            })
            for log in [a, b] {
                #expect(log.current("orders")?.value == 1 && log.lastSeq == 3)
                #expect(log.wheel("status")?.target == .index(2))
                #expect(log.text("notice")?.color == "#e67e22")
            }
            guard case .success(let stored) = await append(b, "orders", 2) else {
                Issue.record("a change was refused after the recovery")
                return
            }
            #expect(stored.first?.seq == 4, "the sequence goes on from the nodes'")
            #expect(await a.waitForChanges { a.current("orders")?.value == 2 })
            #expect(a.statistics.recoveries == 1 && b.statistics.recoveries == 1)
            #expect(a.statistics.recoverySeeds + b.statistics.recoverySeeds == 1, "one node seeded")
            #expect(a.statistics.recoveryLostChanges == 0 && b.statistics.recoveryLostChanges == 0)
            let refusal = StoreError.historyLost("epoch none instead of \(epoch)")
            #expect(refusal.isHistoryLost && !refusal.isUnreachable)
            #expect(refusal.description.contains("Redis lost its data; recovering"), "\(refusal.description)")
            #expect(APIError.storeUnavailable(refusal).code == "redis_history_lost")
        }
    }

    @Test("an Idempotency-Key read before Redis lost its data is seeded with the values: its retry counts once")
    func idempotencyKeysSeeded() async throws {
        try await withTwoNodes(volatile: true) { (redis: RedisServerProcess, a: RedisChangeLog, b: RedisChangeLog) in
            let request = MetricCommitRequest(metrics: [IncrementTests.increment("orders", 3)], requestKey: "order-41")
            let first = try await IncrementTests.commit(a, request).get()
            #expect(await b.waitForChanges { b.lastSeq == first.metrics.first?.seq })
            let feed = Changes()  // each node's feed goes stale at the loss and live again once it has recovered
            for log in [a, b] { log.observeFeed { _ in feed.changed() } }
            let epoch = a.epoch
            redis.kill()
            try redis.start()
            #expect(await feed.wait(within: 15) {
                a.epoch != epoch && a.epoch == b.epoch && a.failure == nil && b.failure == nil
            })
            // The producer never saw the 202 (say Redis died before it was sent) and retries, through the other node.
            let retried = try await IncrementTests.commit(b, request).get()
            #expect(retried.replayed == [true], "the retry is answered from memory")
            #expect(retried.metrics.map(\.value) == [3] && retried.metrics.map(\.seq) == first.metrics.map(\.seq))
            let one = MetricCommitRequest(metrics: [IncrementTests.increment("orders", 1)])
            let next = try await IncrementTests.commit(a, one)
            #expect((try? next.get())?.metrics.map(\.value) == [4], "the retry added nothing")
        }
    }

    @Test("a change sent into a Redis flushed under an open connection is refused, never acknowledged and then lost")
    func flushedUnderConnection() async throws {
        try await withNode { (redis: RedisServerProcess, a: RedisChangeLog) async throws in
            _ = await append(a, "orders", 1)
            let feed = Changes()  // the feed goes stale at the refusal and live again once the node has recovered
            a.observeFeed { _ in feed.changed() }
            let raw = RedisConnection(configuration: .init(url: try RedisURL(redis.url)), logger: Self.logger)
            defer { raw.close() }
            func command(_ arguments: [String]) async -> Result<RedisReply, RedisError> {
                await withCheckedContinuation { continuation in
                    raw.connect { _ in raw.send(arguments) { continuation.resume(returning: $0) } }
                }
            }
            _ = await command(["FLUSHALL"])
            // Sent before the once-a-second ping can notice: the append script itself finds the epoch gone.
            guard case .failure(let refusal) = await append(a, "orders", 2) else {
                Issue.record("a change into the flushed Redis was acknowledged")
                return
            }
            #expect(refusal.isHistoryLost, "\(refusal)")
            #expect((try? await command(["EXISTS", "{test}:changes"]).get())?.integerValue == 0, "nothing written")
            #expect(await feed.wait(within: 15) { a.failure == nil && a.statistics.recoveries == 1 })
            #expect(a.current("orders")?.value == 1, "the seed holds what was acknowledged, not the refused change")
            guard case .success = await append(a, "orders", 3) else {
                Issue.record("a change was refused after the recovery")
                return
            }
        }
    }

    @Test("a gap in the sequence (changes the stream no longer holds) is bridged by the latest values")
    func gap() async throws {
        try await withTwoNodes { redis, a, b throws in
            for value in 1...3 { _ = await append(a, "orders", Double(value)) }
            _ = await append(a, "revenue", 7)
            #expect(await b.waitForChanges { b.lastSeq == 4 })
            let seenB = record(b)
            // Ten sequence numbers drawn whose entries are gone, as when the stream was trimmed past a node's position.
            let raw = RedisConnection(configuration: .init(url: try RedisURL(redis.url)), logger: Self.logger)
            defer { raw.close() }
            let drawn = await withCheckedContinuation { continuation in
                raw.connect { _ in
                    raw.send(["INCRBY", "{test}:seq", "10"]) { continuation.resume(returning: $0) }
                }
            }
            #expect((try? drawn.get())?.integerValue == 14)
            let last = await append(a, "orders", 42)
            #expect((try? last.get())?.first?.seq == 15)
            #expect(await b.waitForChanges { b.lastSeq == 15 })
            #expect(b.current("orders")?.value == 42)
            #expect(b.current("revenue")?.value == 7)
            // Change 4 may still be on its way to subscribers when `lastSeq` reads 4 (the model is updated first).
            #expect(
                seenB.all.map(\.lastSeq).filter { $0 > 4 } == [15], "only what changed since seq 4 is told, once")
        }
    }

    @Test("a node that starts on Redis builds its window, chart and trend tiles again once the log has loaded the series")
    func tilesReadTheLoadedSeries() async throws {
        try await withNode { (redis: RedisServerProcess, a: RedisChangeLog) async throws in
            for amount in [3.0, 4.0, 5.0] {
                let committed = await withCheckedContinuation { continuation in
                    a.commitMetrics(MetricCommitRequest(metrics: [MetricUpdate(id: "orders", value: 0, increment: amount).stored])) {
                        continuation.resume(returning: $0)
                    }
                }
                #expect((try? committed.get()) != nil)
            }
            // A second node, started the way `serve` starts one: its hubs are built before its log opens.
            let configuration = try RollboardConfiguration.parse(serverYAML: nil, dashboards: [("d/shop.yaml", """
                id: shop
                tiles:
                  - {id: today, type: counter, metric: orders, format: "%d", window: today, aggregate: sum}
                  - {id: line, type: chart, metric: orders, window: last 1h, step: 1m}
                  - {id: total, type: counter, metric: orders, format: "%d", trend: 1h}
                """)])
            let b = try RedisChangeLog(settings: RedisSettings(url: redis.url, keyPrefix: "test"), logger: Self.logger)
            defer { b.close() }
            let directory = try DashboardDirectory(
                configuration: configuration, store: b, metrics: ServerMetrics(), logger: Self.logger)
            let feed = Changes()
            b.observeFeed { _ in feed.changed() }
            b.start()
            #expect(await feed.wait { b.isFeedLive })
            let screen = RecordingSink()
            _ = try #require(directory.hub("shop")).connect(screen, fps: nil)
            #expect(await screen.wait { screen.messages.contains { $0.contains(#""type":"hello""#) } })
            let fullHello = try #require(screen.messages.last { $0.contains(#""type":"hello""#) })
            let hello = String(fullHello[try #require(fullHello.range(of: #""tiles":{"#, options: .backwards)).lowerBound...])
            #expect(hello.contains(#""today":{"text":"12""#), "today's sum is the three increments: \(hello)")
            #expect(hello.contains(#""total":{"text":"12""#), "\(hello)")
            #expect(hello.contains(#""line":{"#) && !hello.contains(#""line":null"#), "the chart has its point: \(hello)")
        }
    }
}
