import Logging
import RollboardTestSupport
import Synchronization
import Testing

@testable import RollboardCore
@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardRedisLog
@testable import RollboardHub
@testable import RollboardAPI

#if canImport(Glibc)
    import Glibc
#endif

/// Closing a Redis change log is an event, timed by the link's clock: the writes in flight get their grace on it, and
/// the completion comes when they are answered or the grace is over; no thread waits meanwhile.
@Suite("Redis change log closing", .serialized, .enabled(if: RedisServerProcess.shouldRun))
struct RedisChangeLogClosingTests {
    @Test("a write in flight to a Redis that stopped answering holds the close until two seconds on the link's clock")
    func graceOnTheLinkClock() async throws {
        let redis = try RedisServerProcess.forChangeLog()
        defer { redis.stop() }
        var logger = Logger(label: "test.redis-closing")
        logger.logLevel = .critical
        let clock = ManualClock(at: 0)
        let log = try RedisChangeLog(
            settings: RedisSettings(url: redis.url, keyPrefix: "closing"), historyLimit: 10,
            seriesLimits: SeriesLimits(), logger: logger, clock: nil, linkClock: clock.clock)
        log.start()
        #expect(await eventually { log.failure == nil && log.isFeedLive })
        let pid = try #require(redis.processIdentifier)
        kill(pid, SIGSTOP)
        defer { kill(pid, SIGCONT) }
        let answered = Mutex<Result<[StoredMetric], StoreError>?>(nil)
        log.append([MetricUpdate(id: "m", value: 1)]) { result in
            answered.withLock { $0 = result }
            clock.changes.changed()
        }
        #expect(await eventually { log.unconfirmedSeconds != nil }, "the write is in flight")

        let closed = Mutex(false)
        log.close {
            closed.withLock { $0 = true }
            clock.changes.changed()
        }
        #expect(await clock.changes.wait { clock.armed.contains(2) }, "the link's timer, armed for the grace: \(clock.armed)")
        #expect(!closed.withLock { $0 } && answered.withLock { $0 } == nil, "nothing is answered before the grace")
        clock.advance(to: 2)
        #expect(await clock.changes.wait { closed.withLock { $0 } }, "closed once the grace is over")
        #expect(await clock.changes.wait { answered.withLock { $0 } != nil }, "and the write in flight is answered (refused)")
        #expect(log.failure == .closed)
    }
}
