import Foundation
import Logging
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

#if canImport(Glibc)
    import Glibc
#endif

/// One contract, run unchanged against both change logs: the embedded journal (`MetricStore`) and a real
/// `redis-server` (`RedisChangeLog`). Whatever a backend is, a change is numbered in one sequence, told to
/// subscribers once and in order, still there after a restart, and refused whole (nothing applied, nothing told)
/// while the backend cannot make it durable, after which numbering goes on without a gap.
@Suite("Change log contract", .serialized)
struct ChangeLogContractTests {
    enum Backend: String, CaseIterable, CustomTestStringConvertible {
        case journal, redis
        var testDescription: String { rawValue }

        /// The backends this machine can run: Redis needs `redis-server` (or `ROLLBOARD_REQUIRE_REDIS=1`, which
        /// makes its absence a failure).
        static var available: [Backend] { RedisServerProcess.shouldRun ? allCases : [.journal] }
    }

    /// A backend's durable place (a folder, or a Redis server and key prefix) that logs are opened on, broken and
    /// healed.
    final class Fixture {
        let backend: Backend
        let folder = TemporaryDirectory()
        let redis: RedisServerProcess?
        let faults = StoreFaults()
        /// The bytes idempotency keys may take, for logs opened from now on.
        var idempotencyBudget = ServerSettings.Defaults.idempotencyMemoryBytes
        let logger: Logger = {
            var logger = Logger(label: "test.contract")
            logger.logLevel = .critical
            return logger
        }()

        init(_ backend: Backend) throws {
            self.backend = backend
            redis = backend == .redis ? try RedisServerProcess.forChangeLog() : nil
        }

        deinit {
            folder.remove()
        }

        /// Runs `body` with a log on a fresh place of `backend`, closed afterwards.
        static func withLog(_ backend: Backend, _ body: (Fixture, any ChangeLog) async throws -> Void) async throws {
            let fixture = try Fixture(backend)
            let log = try fixture.open()
            defer { log.close() }
            try await body(fixture, log)
        }

        /// A log on the fixture's place, as a starting node opens it.
        func open() throws -> any ChangeLog {
            switch backend {
            case .journal:
                let directory = folder.path + "/store"
                return try MetricStore.reopening(directory) { [idempotencyBudget] in
                    try MetricStore(
                        directory: directory, idempotencyBudget: idempotencyBudget, logger: logger, faults: faults)
                }
            case .redis:
                return try RedisChangeLog.opened(
                    settings: RedisSettings(url: redis!.url, keyPrefix: "contract"), logger: logger,
                    idempotencyBudget: idempotencyBudget)
            }
        }

        /// The backend stops taking changes: the disk says ENOSPC, or Redis goes away.
        func breakDown() {
            switch backend {
            case .journal: faults.inject(.append, errno: ENOSPC, times: 1_000_000)
            case .redis: redis!.kill()
            }
        }

        /// The backend takes changes again.
        func heal() throws {
            switch backend {
            case .journal: faults.clear()
            case .redis: try redis!.start()
            }
        }
    }

    /// One change of every kind, in the order a test commits them.
    static let everyKind: [StoreChange] = [
        .metrics([
            StoredMetric(id: "revenue", value: 1_234.5, seq: 0, updatedAt: 0, policy: .latest),
            StoredMetric(id: "orders", value: 12, seq: 1, updatedAt: 0, interval: 2, animated: false),
            StoredMetric(id: "visitors", value: -3, seq: 2, updatedAt: 0),
        ]),
        .wheel(StoredWheel(id: "status", target: .index(2), seq: 0, updatedAt: 0)),
        .text(StoredText(id: "notice", text: "Fire drill at 3", color: "#c0392b", seq: 0, updatedAt: 0)),
        .slides(StoredSlides(id: "news", slides: [.text("Welcome", color: nil)], seq: 0, updatedAt: 0)),
        .carousel(StoredCarouselCommand(id: "news", action: .goto(page: 0), seq: 0, updatedAt: 0)),
        .playlist(StoredPlaylistCommand(id: "wall", action: .hold, seq: 0, updatedAt: 0)),
        .screens(StoredScreenCommand(action: .announceEverywhere(text: "Hello", seconds: 5), seq: 0, updatedAt: 0)),
        .screens(StoredScreenCommand(action: .assign(screen: "Lobby TV", page: "/p/wall?name=Lobby%20TV"), seq: 0, updatedAt: 0)),
        .screens(StoredScreenCommand(action: .reloadScreen("Lobby TV"), seq: 0, updatedAt: 0)),
        .screens(StoredScreenCommand(action: .identify(screen: "Lobby TV", seconds: 5), seq: 0, updatedAt: 0)),
        .viewerKey(
            StoredViewerKey(
                action: .create(
                    ViewerKey(
                        id: "k0123456789ab", name: "lobby", dashboards: ["demo"], createdAt: 7,
                        digest: String(repeating: "a", count: 64))),
                seq: 0, updatedAt: 0)),
        .leaderboard(
            StoredLeaderboard(
                id: "sales", entries: [.init(name: "Alice", value: 12), .init(name: "Bob", value: 9.5)], seq: 0,
                updatedAt: 0)),
        .sourceHealth(StoredSourceHealth(id: "stats", metrics: ["visitors"], reason: "upstream answered HTTP 503")),
    ]

    private func commit(_ log: any ChangeLog, _ change: StoreChange) async -> Result<StoreChange, StoreError> {
        await withCheckedContinuation { continuation in
            log.commit(change) { continuation.resume(returning: $0) }
        }
    }

    /// Commits one change of every kind to `log`; the last sequence number they took.
    private func commitEveryKind(_ log: any ChangeLog) async throws -> UInt64 {
        var lastSeq: UInt64 = 0
        for change in Self.everyKind { lastSeq = try await commit(log, change).get().lastSeq }
        return lastSeq
    }

    private func record(_ log: any ChangeLog) -> HeardChanges {
        HeardChanges(log)
    }

    /// `change` as a log commits it: its parts numbered from `first`, stamped with `time`.
    private func committed(_ change: StoreChange, first: UInt64, at time: Double) -> StoreChange {
        change.restamped(adding: first).stamped(at: time)
    }

    @Test("every kind of change is numbered in one contiguous sequence and told to subscribers once, in order, as committed",
          arguments: Backend.available)
    func oneSequence(backend: Backend) async throws {
        try await Fixture.withLog(backend) { (_, log) async throws in
            let seen = record(log)
            var answers: [StoreChange] = []
            for change in Self.everyKind {
                answers.append(try await commit(log, change).get())
            }
            var next: UInt64 = 1
            for (sent, answer) in zip(Self.everyKind, answers) {
                #expect(answer == committed(sent, first: next, at: answer.updatedAt), "\(answer)")
                next += UInt64(sent.sequenceCount)
            }
            #expect(await seen.wait { seen.all.count >= answers.count })
            #expect(seen.all == answers, "subscribers hear exactly the committed changes, in order")
            // The journal applies a change before it answers; Redis when its reader reads the stream, an instant later.
            #expect(await log.waitForChanges { log.lastSeq == next - 1 })
        }
    }

    @Test("what was committed is there after a restart, with its epoch, and numbering goes on",
          arguments: Backend.available)
    func durableAcrossRestart(backend: Backend) async throws {
        let fixture = try Fixture(backend)
        let first = try fixture.open()
        let lastSeq = try await commitEveryKind(first)
        #expect(await first.waitForChanges { first.lastSeq == lastSeq })
        let epoch = first.epoch
        first.close()

        let reopened = try fixture.open()
        defer { reopened.close() }
        #expect(reopened.epoch == epoch && reopened.lastSeq == lastSeq)
        #expect(reopened.current("revenue")?.value == 1_234.5 && reopened.current("visitors")?.value == -3)
        #expect(reopened.wheel("status")?.target == .index(2))
        #expect(reopened.text("notice")?.text == "Fire drill at 3")
        #expect(reopened.slides("news")?.slides == [.text("Welcome", color: nil)])
        #expect(reopened.snapshot.playlistCommands("wall").map(\.action) == [.hold])
        #expect(reopened.viewerKeys().map(\.id) == ["k0123456789ab"])
        #expect(reopened.leaderboard("sales")?.entries == [.init(name: "Alice", value: 12), .init(name: "Bob", value: 9.5)])
        let next = try await commit(reopened, .metrics([StoredMetric(id: "revenue", value: 2, seq: 0, updatedAt: 0)]))
        #expect(try next.get().lastSeq == lastSeq + 1)
    }

    @Test("a change the backend cannot make durable is refused whole: nothing applied, nothing told, no number used",
          arguments: Backend.available)
    func refusedUnderFaults(backend: Backend) async throws {
        try await Fixture.withLog(backend) { (fixture, log) async throws in
            let seen = record(log)
            let before = try await commit(log, Self.everyKind[0]).get()
            #expect(await seen.wait { seen.all.count == 1 })

            fixture.breakDown()
            let refused = await commit(log, .text(StoredText(id: "notice", text: "lost?", seq: 0, updatedAt: 0)))
            #expect(throws: StoreError.self) { try refused.get() }
            #expect(log.text("notice") == nil, "a refused change is not applied")
            #expect(await eventually(within: 10) { log.failure != nil }, "the log says why it refuses changes")

            try fixture.heal()
            var again: StoreChange?
            let deadline = Date().addingTimeInterval(20)
            while again == nil, Date() < deadline {
                if case .success(let change) = await commit(log, Self.everyKind[2]) { again = change }
                try? await Task.sleep(for: .milliseconds(100))
            }
            let accepted = try #require(again, "the log takes changes again once the backend is back")
            #expect(accepted.lastSeq == before.lastSeq + 1, "no sequence number was used by the refused change")
            #expect(await seen.wait { seen.all.count == 2 })
            #expect(seen.all.map(\.lastSeq) == [before.lastSeq, accepted.lastSeq], "nothing refused was told")
        }
    }

    @Test("a log opened later catches up on every change committed before it, and hears later ones in order",
          arguments: Backend.available)
    func catchUp(backend: Backend) async throws {
        let fixture = try Fixture(backend)
        let writer = try fixture.open()
        let committedSeq = try await commitEveryKind(writer)
        if backend == .journal { writer.close() }  // one journal has one writer: the later log is a restart

        let later = try fixture.open()
        defer { later.close() }
        #expect(later.lastSeq == committedSeq)
        #expect(later.viewerKeys().count == 1 && later.wheel("status") != nil)
        let heard = record(later)
        let source = backend == .journal ? later : writer
        let more = try await commit(source, .metrics([StoredMetric(id: "orders", value: 13, seq: 0, updatedAt: 0)]))
        let moreSeq = try more.get().lastSeq
        #expect(await heard.wait { heard.all.map(\.lastSeq) == [moreSeq] })
        #expect(later.current("orders")?.value == 13)
        if backend == .redis { writer.close() }
    }

    private func commitMetrics(_ log: any ChangeLog, _ request: MetricCommitRequest) async
        -> Result<MetricCommitOutcome, MetricCommitError>
    {
        await withCheckedContinuation { continuation in
            log.commitMetrics(request) { continuation.resume(returning: $0) }
        }
    }

    @Test(
        "a batch giving one eventId to two items is refused naming both, with or without a key, its retry alike: nothing applied",
        arguments: Backend.available)
    func repeatedEventID(backend: Backend) async throws {
        try await Fixture.withLog(backend) { (_, log) async throws in
            let items = [IncrementTests.increment("orders", 1, eventID: "e1"), IncrementTests.increment("orders", 5, eventID: "e1")]
            for key in [nil, "k", nil, "k"] {
                let refused = await commitMetrics(log, MetricCommitRequest(metrics: items, requestKey: key))
                #expect(refused == .failure(.repeatedEventID(item: 1, earlier: 0)), "\(refused)")
            }
            // A value and an increment under one eventId, apart in the batch, are refused the same.
            let apart = await commitMetrics(
                log,
                MetricCommitRequest(metrics: [
                    IncrementTests.value("visitors", 3, eventID: "e2"), IncrementTests.increment("orders", 1),
                    IncrementTests.increment("revenue", 1, eventID: "e2"),
                ]))
            #expect(apart == .failure(.repeatedEventID(item: 2, earlier: 0)), "\(apart)")
            #expect(log.lastSeq == 0 && log.current("orders") == nil, "nothing was applied")
            // Neither the key nor the event id was used: each commits once, then is answered from memory.
            let once = MetricCommitRequest(metrics: [IncrementTests.increment("orders", 1, eventID: "e1")], requestKey: "k")
            #expect(try await commitMetrics(log, once).get().replayed == [false])
            #expect(try await commitMetrics(log, once).get().replayed == [true])
            #expect(await log.waitForChanges { log.current("orders")?.value == 1 })
        }
    }

    @Test(
        "idempotency keys past the byte budget are forgotten oldest first, the same on both backends and after a restart",
        arguments: Backend.available)
    func idempotencyBudget(backend: Backend) async throws {
        let fixture = try Fixture(backend)
        func request(_ index: Int) -> MetricCommitRequest {
            MetricCommitRequest(
                metrics: [IncrementTests.increment("orders", 1)], requestKey: "key-" + String(1_000 + index))
        }
        // Every key costs the same: its name, its one-metric answer and the overhead; ten fit.
        let answer = RememberedAnswer([StoredMetric(id: "orders", value: 1, seq: 1, updatedAt: 1, increment: 1)])
        let cost = IdempotencyMemory.cost(key: IdempotencyMemory.requestKey("key-1000"), answer: answer.encoded)
        fixture.idempotencyBudget = cost * 10
        var log = try fixture.open()
        var seqs: [UInt64] = []
        for index in 0..<20 { seqs.append(try await commitMetrics(log, request(index)).get().seq) }
        for restarted in [false, true] {
            if restarted {
                log.close()
                log = try fixture.open()
            }
            for index in [19, 10] {
                let again = try await commitMetrics(log, request(index)).get()
                #expect(again.replayed == [true] && again.seq == seqs[index], "key \(index), restarted: \(restarted)")
            }
        }
        // The eleventh newest was forgotten: it is applied anew (and, remembered now, pushes out key 10).
        let forgotten = try await commitMetrics(log, request(9)).get()
        #expect(forgotten.replayed == [false] && forgotten.seq == 21)
        #expect(try await commitMetrics(log, request(10)).get().replayed == [false])
        #expect(try await commitMetrics(log, request(12)).get().replayed == [true])
        log.close()
    }
}
