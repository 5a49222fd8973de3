import Foundation
import Logging
import RollboardTestSupport
import Synchronization
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

extension ManualClock {
    /// A node's clock whose monotonic and wall time are both this clock (its seconds are seconds since 1970).
    var nodeClock: NodeClock { NodeClock(monotonic: clock, wall: clock) }
}

/// One whole node — the journal, the API on port 0, the hubs, the playlists and the sources — on one manual clock:
/// nothing in it moves unless the test moves the clock, so a day of it passes in well under a second.
@Suite("A node on a manual clock")
struct NodeOnManualClockTests {
    static let kasse = """
        id: kasse
        timeZone: Europe/Berlin
        motion: reduced
        tiles:
          - {id: heute, type: counter, metric: verkauf, format: "%d", window: today, aggregate: sum}
          - {id: zeit, type: clock, locale: de-DE}
          - {id: besucher, type: counter, metric: visitors, format: "%d"}
        """
    static let lobby = "id: lobby\ntiles:\n  - {id: hallo, type: counter, metric: hallo, format: \"%d\"}\n"
    static let wall = """
        id: wall
        title: Lobby
        entries:
          - {dashboard: kasse, seconds: 10}
          - {dashboard: lobby, seconds: 5}
        """
    static let stats = """
        id: stats
        type: json
        url: https://stats.example.com/now
        every: 30s
        metrics:
          - {metric: visitors, pointer: /v}
        """

    /// Europe/Berlin: 28 March 2026 has 24 hours, 29 March 23 (summer time begins at 02:00), and the next midnight.
    static let midnight = WindowedTileTests.march29Midnight
    static let nextMidnight = WindowedTileTests.march30Midnight

    @Test("a node passes a source failure and recovery, a local midnight, a summer-time change and a playlist turn")
    func aDayOnTheClock() async throws {
        let start = Self.midnight - 60  // 23:59:00 CET on 28 March
        // Every wait below wakes on an event: a timer armed or fired, a message to a screen, a change told by the log.
        let changes = Changes()
        let clock = ManualClock(at: start, changes: changes)
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        let fetches = SourceDriverTests.ScriptedFetches([
            .success(["visitors": 5]), .failure(.status(503)), .success(["visitors": 7]),
        ])
        let loaded = try RollboardConfiguration.parse(
            serverYAML: nil,
            dashboards: [("config/dashboards/kasse.yaml", Self.kasse), ("config/dashboards/lobby.yaml", Self.lobby)],
            playlists: [("config/playlists/wall.yaml", Self.wall)],
            sources: [("config/sources/stats.yaml", Self.stats)])
        var settings = loaded.server
        settings.dataDirectory = folder.path
        settings.host = "127.0.0.1"
        settings.port = 0
        var options = RollboardNode.Options(
            configuration: loaded.replacingServer(settings), tls: nil, producerTokens: [])
        options.clock = clock.nodeClock
        options.fetch = { _ in fetches.next() }
        var logger = Logger(label: "test.node-clock")
        logger.logLevel = .critical
        let node = try RollboardNode(options, logger: logger)
        try node.start()
        defer { node.stop() }
        node.changeLog.subscribe { _ in changes.changed() }
        let kasse = RecordingSink(changes: changes)
        _ = try #require(node.directory.hub("kasse")).connect(kasse, fps: nil)

        // The source: fetched at start, failing at its next period, retried a second later.
        #expect(await changes.wait { node.changeLog.snapshot.current("visitors")?.value == 5 })
        #expect(await changes.wait { clock.armed.contains(start + 30) }, "\(clock.armed)")
        #expect(await clock.advanceWhenSettled(to: start + 30))
        #expect(await changes.wait { node.sources.statuses.first?.health == .down("upstream answered HTTP 503") })
        let stale = #"{"type":"sources","stale":{"besucher":"upstream answered HTTP 503"}}"#
        #expect(await changes.wait { kasse.texts.contains(stale) }, "the tile is marked stale, with the reason")
        #expect(await changes.wait { clock.armed.contains(start + 31) }, "retried after 1 s: \(clock.armed)")
        #expect(await clock.advanceWhenSettled(to: start + 31))
        #expect(await changes.wait { node.changeLog.snapshot.current("visitors")?.value == 7 })
        #expect(await changes.wait { node.sources.statuses.first?.health == .up })
        #expect(await changes.wait { kasse.texts.contains(#"{"type":"sources","stale":{}}"#) }, "and no longer")

        // Local midnight: today's sum starts afresh at 00:00 Berlin time, stamped by the node's wall clock.
        try await commit(node, verkauf: 12)
        #expect(await changes.wait { clock.armed.contains { $0 != nil && $0! <= start + 32 } }, "the hub's next frame")
        #expect(await clock.advanceWhenSettled(to: start + 32))
        #expect(await changes.wait { kasse.texts.contains { $0.contains(#""heute":"#) && $0.contains("12") } })
        #expect(await clock.advanceWhenSettled(to: Self.midnight))
        #expect(await changes.wait { kasse.texts.contains { $0.contains(#""heute":null"#) } }, "\(kasse.texts.suffix(2))")
        #expect(await changes.wait { kasse.texts.contains { $0.contains(#""time":"00:00:00""#) } })

        // Summer time: the clock tile goes from 01:59:59 to 03:00:00; the day does not reset.
        try await commit(node, verkauf: 3)
        #expect(await clock.advanceWhenSettled(to: Self.midnight + 7_199))
        #expect(await changes.wait { kasse.texts.contains { $0.contains(#""time":"01:59:59""#) } })
        let beforeChange = kasse.texts.count
        #expect(await clock.advanceWhenSettled(to: Self.midnight + 7_200))
        #expect(await changes.wait { kasse.texts.dropFirst(beforeChange).contains { $0.contains(#""03:00:00""#) } }, "\(kasse.texts.suffix(3)) \(clock.armed)")
        #expect(!kasse.texts.dropFirst(beforeChange).contains { $0.contains(#""heute":null"#) })

        // The 23-hour day ends at the next local midnight, not 24 hours after the last.
        #expect(await clock.advanceWhenSettled(to: Self.nextMidnight - 1))
        #expect(await changes.wait { kasse.texts.contains { $0.contains(#""time":"23:59:59""#) } })
        let beforeMidnight = kasse.texts.count
        #expect(!kasse.texts.dropFirst(beforeChange).contains { $0.contains(#""heute":null"#) })
        #expect(await clock.advanceWhenSettled(to: Self.nextMidnight))
        #expect(await changes.wait { kasse.texts.dropFirst(beforeMidnight).contains { $0.contains(#""heute":null"#) } })
        #expect(Self.nextMidnight - Self.midnight == 23 * 3_600)

        // The playlist: a turn is 15 s on the wall clock, from a multiple of 15; a screen sees kasse, lobby, kasse.
        let turn = (Self.nextMidnight / 15).rounded(.up) * 15 + 15
        #expect(await clock.advanceWhenSettled(to: turn - 1))
        let screen = RecordingSink(changes: changes)
        let playlist = try #require(node.directory.playlist("wall"))
        _ = playlist.connect(screen, fps: nil, calm: false, name: nil, address: nil, userAgent: nil)
        #expect(await changes.wait { hellos(screen) == ["lobby"] }, "\(hellos(screen))")
        #expect(await changes.wait { clock.armed.contains(turn) })
        #expect(await clock.advanceWhenSettled(to: turn))
        #expect(await changes.wait { hellos(screen) == ["lobby", "kasse"] }, "\(hellos(screen))")
        #expect(await changes.wait { clock.armed.contains(turn + 10) })
        #expect(await clock.advanceWhenSettled(to: turn + 10))
        #expect(await changes.wait { hellos(screen) == ["lobby", "kasse", "lobby"] }, "\(hellos(screen))")
    }

    @Test("a lease on the node's clock runs out when Redis stops answering: polling stops then, not before")
    func leaseExpiry() {
        // A node with Redis is not needed: the lease machine takes the clock's `now`; Redis's own expiry runs on
        // Redis's clock, which no test can move. The machine is the one `SourceLeases` drives.
        let clock = ManualClock(at: WindowedTileTests.march29Midnight)
        let t0 = clock.now
        var machine = SourceLeaseMachine()
        #expect(machine.configure([(id: "stats", every: 30)], now: t0) == [
            .attempt(source: "stats", renew: false, milliseconds: 45_000),
        ])
        #expect(machine.answered("stats", granted: true, now: t0) == [.startPolling("stats"), .wake(at: t0 + 15)])
        clock.advance(to: t0 + 15)
        #expect(machine.timerFired(now: clock.now) == [
            .attempt(source: "stats", renew: true, milliseconds: 45_000), .wake(at: t0 + 45),
        ])
        clock.advance(to: t0 + 20)
        #expect(machine.answered("stats", granted: nil, now: clock.now) == [.wake(at: t0 + 35)], "still ours")
        clock.advance(to: t0 + 44.9)
        _ = machine.timerFired(now: clock.now)
        #expect(machine.leases["stats"]?.held == true, "held until the lease would have run out")
        clock.advance(to: t0 + 45)
        #expect(machine.timerFired(now: clock.now).contains(.stopPolling("stats")))
    }

    /// The dashboards whose hello a playlist screen was sent, in order.
    private func hellos(_ sink: RecordingSink) -> [String] {
        sink.texts.compactMap { text in
            guard text.hasPrefix(#"{"type":"hello""#) else { return nil }
            return text.contains(#""id":"kasse""#) ? "kasse" : text.contains(#""id":"lobby""#) ? "lobby" : "?"
        }
    }

    /// Adds `amount` to `verkauf` through the node's change log.
    private func commit(_ node: RollboardNode, verkauf amount: Double) async throws {
        let update = MetricUpdate(id: "verkauf", value: 0, increment: amount)
        let result = await withCheckedContinuation { done in
            node.changeLog.commitMetrics(MetricCommitRequest(metrics: [update.stored])) { done.resume(returning: $0) }
        }
        _ = try result.get()
    }
}
