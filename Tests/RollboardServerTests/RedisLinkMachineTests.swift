import Testing

@testable import RollboardCore
@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardMetrics
@testable import RollboardRedisLog
@testable import RollboardHub
@testable import RollboardSources
@testable import RollboardAPI

/// The Redis change log's link, driven with explicit monotonic times and jitter: no Redis, no clocks, no sleeping.
@Suite("Redis link machine")
struct RedisLinkMachineTests {
    /// A link that opened and caught up: generation 0, up, the feed live.
    static func opened() -> RedisLinkMachine {
        var link = RedisLinkMachine()
        _ = link.start()
        _ = link.reconnected(generation: 0)
        _ = link.caughtUp(generation: 0)
        return link
    }

    @Test("a log that starts refuses changes, opens at once, and is not live until the reader caught up")
    func start() {
        var link = RedisLinkMachine()
        #expect(link.phase == .idle && !link.isFeedLive)
        #expect(link.start() == [.refuse(RedisLinkMachine.notOpenedYet), .open(generation: 0)])
        #expect(link.start() == [], "started once")
        #expect(link.reconnected(generation: 0) == [.refuse(nil), .read(generation: 0)])
        #expect(link.hasOpened && !link.isFeedLive)
        #expect(link.caughtUp(generation: 0) == [.feed(live: true)])
    }

    @Test(
        "a Redis away at start is waited for with the same backoff, and each retry opens, never reconnects",
        arguments: [1.0, 0.8, 1.2])
    func openingWaits(jitter: Double) {
        var link = RedisLinkMachine()
        _ = link.start()
        var now = 50.0
        var expectedWait = RedisLinkMachine.firstDelay
        for _ in 0..<7 {
            expectedWait = min(expectedWait * 2, RedisLinkMachine.maximumDelay)
            let actions = link.reconnectFailed(generation: 0, reason: "ECONNREFUSED", now: now, jitter: jitter)
            #expect(actions == [.refuse("ECONNREFUSED"), .wake(at: now + expectedWait * jitter)])
            #expect(link.timerFired(now: now + 0.01) == [.wake(at: now + expectedWait * jitter)], "not due yet")
            now += expectedWait * jitter
            #expect(link.timerFired(now: now) == [.open(generation: 0)])
        }
        #expect(link.lost(generation: 0, reason: "EOF", now: now, jitter: 1) == [], "nothing to lose before opening")
        #expect(link.reconnected(generation: 0) == [.refuse(nil), .read(generation: 0)])
        #expect(link.delay == RedisLinkMachine.firstDelay)
        #expect(link.lost(generation: 0, reason: "EOF", now: now, jitter: 1).contains(.dropConnections))
        #expect(link.timerFired(now: now + 1) == [.reconnect(generation: 1)], "once opened, a retry reconnects")
    }

    @Test("closing before the first opening answered turns the opening away")
    func closeWhileOpening() {
        var link = RedisLinkMachine()
        _ = link.start()
        #expect(link.close() == [.wake(at: nil)])
        #expect(link.reconnected(generation: 0) == [.dropConnections])
        #expect(link.reconnectFailed(generation: 0, reason: "x", now: 1, jitter: 1) == [])
    }
    @Test("a loss drops both connections, refuses changes, tells the observers once and retries after 0.1 s")
    func loss() {
        var link = Self.opened()
        #expect(link.lost(generation: 0, reason: "EOF", now: 100, jitter: 1) == [
            .dropConnections, .refuse("EOF"), .feed(live: false), .wake(at: 100.1),
        ])
        #expect(link.generation == 1 && !link.isFeedLive)
        #expect(link.lost(generation: 0, reason: "a late reply of the old connection", now: 100.05, jitter: 1) == [])
        #expect(link.timerFired(now: 100.05) == [.wake(at: 100.1)], "not due yet: armed again")
        #expect(link.timerFired(now: 100.1) == [.reconnect(generation: 1)])
    }

    @Test(
        "each failed reconnection doubles the wait up to 2 s, jitter applied to each",
        arguments: [
            (1.0, [0.2, 0.4, 0.8, 1.6, 2.0, 2.0]),
            (0.8, [0.16, 0.32, 0.64, 1.28, 1.6, 1.6]),
            (1.2, [0.24, 0.48, 0.96, 1.92, 2.4, 2.4]),
        ])
    func backoff(jitter: Double, waits: [Double]) {
        var link = Self.opened()
        var now = 0.0
        _ = link.lost(generation: 0, reason: "EOF", now: now, jitter: jitter)
        for wait in waits {
            now += 10
            #expect(link.timerFired(now: now) == [.reconnect(generation: 1)])
            let actions = link.reconnectFailed(generation: 1, reason: "ECONNREFUSED", now: now, jitter: jitter)
            guard case .wake(let at?) = actions.last else {
                Issue.record("a failed reconnection arms the timer: \(actions)")
                return
            }
            #expect(abs(at - now - wait) < 1e-9, "waits \(at - now), expected \(wait)")
            #expect(actions.first == .refuse("ECONNREFUSED"))
        }
    }

    @Test("a reconnection that works accepts changes, reads without blocking, and the wait starts over")
    func reconnected() {
        var link = Self.opened()
        _ = link.lost(generation: 0, reason: "EOF", now: 0, jitter: 1)
        _ = link.timerFired(now: 1)
        _ = link.reconnectFailed(generation: 1, reason: "refused", now: 1, jitter: 1)
        _ = link.timerFired(now: 2)
        #expect(link.reconnected(generation: 1) == [.refuse(nil), .read(generation: 1)])
        #expect(link.delay == RedisLinkMachine.firstDelay && link.phase == .up)
        #expect(!link.isFeedLive, "live only once the reader caught up")
        #expect(link.caughtUp(generation: 0) == [], "an older reader's news changes nothing")
        #expect(link.caughtUp(generation: 1) == [.feed(live: true)])
        #expect(link.caughtUp(generation: 1) == [], "told once")
        #expect(link.lost(generation: 1, reason: "EOF", now: 5, jitter: 1).last == .wake(at: 5.1))
    }

    @Test("a second loss while already down tells the observers nothing new")
    func lossWhileDown() {
        var link = Self.opened()
        _ = link.lost(generation: 0, reason: "EOF", now: 0, jitter: 1)
        _ = link.timerFired(now: 1)
        _ = link.reconnected(generation: 1)
        let again = link.lost(generation: 1, reason: "EOF", now: 2, jitter: 1)
        #expect(!again.contains(.feed(live: false)), "the feed was not live yet: no second stale")
    }

    @Test("a Redis without this cluster's history keeps the connections for a recovery, refusing changes meanwhile")
    func historyLost() {
        var link = Self.opened()
        _ = link.lost(generation: 0, reason: "EOF", now: 0, jitter: 1)
        _ = link.timerFired(now: 1)
        #expect(link.historyLost(generation: 1, problem: "epoch changed") == [
            .refuse("epoch changed"), .recover(generation: 1),
        ])
        #expect(link.phase == .recovering)
        #expect(link.timerFired(now: 100) == [] && link.lost(generation: 1, reason: "x", now: 100, jitter: 1) == [])
        var recovered = link
        #expect(recovered.reconnected(generation: 1) == [.refuse(nil), .read(generation: 1)], "recovered: up again")
        #expect(recovered.phase == .up)
    }

    @Test("a recovery that gives up drops its connections and reconnects with backoff, as a new generation")
    func recoveryGivesUp() {
        var link = Self.opened()
        _ = link.lost(generation: 0, reason: "EOF", now: 0, jitter: 1)
        _ = link.timerFired(now: 1)
        _ = link.historyLost(generation: 1, problem: "no epoch")
        #expect(link.reconnectFailed(generation: 1, reason: "gave up", now: 100, jitter: 1) == [
            .dropConnections, .refuse("gave up"), .wake(at: 100.2),
        ])
        #expect(link.generation == 2)
        #expect(link.reconnected(generation: 1) == [.dropConnections], "a late report of the recovery is turned away")
        #expect(link.timerFired(now: 100.2) == [.reconnect(generation: 2)])
    }

    @Test("closing stops the timer and turns away every later report, of any generation")
    func close() {
        var link = Self.opened()
        _ = link.lost(generation: 0, reason: "EOF", now: 0, jitter: 1)
        _ = link.timerFired(now: 1)
        #expect(link.close() == [.wake(at: nil)])
        #expect(link.reconnected(generation: 1) == [.dropConnections], "a reconnection that finishes late is closed")
        #expect(link.timerFired(now: 5) == [] && link.close() == [])
    }
}
