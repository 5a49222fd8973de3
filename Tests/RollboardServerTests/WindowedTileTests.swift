import Foundation
import RollboardAnimation
import Synchronization
import Testing

@testable import RollboardCore
@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardRedisLog
@testable import RollboardAccess
@testable import RollboardHub
@testable import RollboardSources
@testable import RollboardAPI
@testable import RollboardServer

/// A metric's series as the change log keeps it, for a windowed tile to read: `commit` adds a change (numbered,
/// stamped with the wall-clock time given) and returns the change the hub is handed.
final class SeriesFeed: Sendable {
    private let state = Mutex((series: MetricSeries(), seq: UInt64(0), total: 0.0))
    let limits = SeriesLimits()

    var series: MetricSeries { state.withLock { $0.series } }

    /// Commits an increment (or, with `value`, a plain value) at wall-clock `time`.
    @discardableResult
    func commit(increment: Double? = nil, value: Double? = nil, at time: Double) -> TileChange {
        let point = state.withLock { state in
            state.seq += 1
            state.total = value ?? state.total + (increment ?? 0)
            let stored = StoredMetric(
                id: "m", value: state.total, seq: state.seq, updatedAt: time, increment: value == nil ? increment : nil)
            state.series.add(stored, limits: limits)
            return MetricSeries.Point(seq: state.seq, time: time, value: state.total, increment: stored.increment)
        }
        return .value(point.value, interval: nil, animated: true, stored: point)
    }
}

/// Tiles that show a window of their metric, driven through the hub's state machine with explicit instants in
/// Europe/Berlin: the window's number per change, midnight resets on ordinary and daylight-saving days, changes ageing
/// out of a sliding window, "—" for an empty window, and `compare` against the same moment of the day before.
@Suite("Windowed tiles")
struct WindowedTileTests {
    static let berlin = TimeZone(identifier: "Europe/Berlin")!
    static let march28Midnight = 1_774_652_400.0  // 2026-03-27T23:00:00Z, a 24-hour day
    static let march29Midnight = 1_774_738_800.0  // 23 hours: summer time begins
    static let march30Midnight = 1_774_821_600.0
    static let october25Midnight = 1_792_879_200.0  // 25 hours: summer time ends
    static let october26Midnight = 1_792_969_200.0

    /// A calm dashboard (each change one jump, so every frame shows a final number) with one counter showing
    /// `window` of metric `m`; hub time 0 is `wallAtZero`.
    static func machine(
        _ feed: SeriesFeed, span: WindowSpan, aggregate: WindowAggregate, compare: MetricWindow.Comparison? = nil,
        kpi: KPIOptions = KPIOptions(), wallAtZero: Double
    ) throws -> HubStateMachine {
        let format = try NumberFormat(format: "%.0f")
        let window = MetricWindow(span: span, aggregate: aggregate, timeZone: berlin)
        let windowed = WindowedValue(
            window: window, compare: compare, limits: feed.limits, series: { feed.series }, at: wallAtZero)
        let inner = try CounterTile(
            tileID: "t", configuration: CounterConfiguration(duration: 1, easing: .linear, format: format),
            value: windowed.value, backlog: 8, at: 0)
        let tile = WindowedTile(
            inner: inner, windowed: windowed, indicator: KPIIndicator(options: kpi, deltaFormat: format),
            wallOffset: wallAtZero, at: 0)
        var machine = HubStateMachine(
            helloDashboard: #"{"id":"w"}"#, tiles: [tile], tilesByMetric: ["m": ["t"]], updatedAt: [:],
            configuration: .init(defaultFPS: 10, maxFPS: 60, slowClientTimeout: 5, calm: true))
        _ = machine.connect(1, fps: 10, now: 0)
        return machine
    }

    /// The tile's full state after a tick at `now`, or `nil` when the tick sent no frame (nothing changed).
    static func tick(_ machine: inout HubStateMachine, at now: Double) -> String? {
        let actions = machine.tick(now: now)
        guard actions.contains(where: { if case .broadcast = $0 { true } else { false } }) else { return nil }
        return TileState.fullJSON(machine.tiles[0].calmState(at: now))
    }

    static func wake(_ actions: [HubAction]) -> Double? {
        for case .wake(let time) in actions { return time }
        return nil
    }

    @Test(
        "a today/sum tile adds up the day's increments and shows — from local midnight: 24, 23 and 25 hours after the last",
        arguments: [(march28Midnight, 24.0), (march29Midnight, 23.0), (october25Midnight, 25.0)])
    func todayResetsAtMidnight(midnight: Double, hours: Double) throws {
        let feed = SeriesFeed()
        feed.commit(increment: 40, at: midnight - 600)  // the day before: not today's
        let tenOClock = midnight + 10 * 3_600
        var machine = try Self.machine(feed, span: .today, aggregate: .sum, wallAtZero: tenOClock)
        _ = machine.apply(feed.commit(increment: 3, at: tenOClock), toMetric: "m", committedAt: nil, now: 0)
        _ = machine.apply(feed.commit(increment: 4, at: tenOClock + 60), toMetric: "m", committedAt: nil, now: 60)
        #expect(Self.tick(&machine, at: 60.1) == #"{"text":"7","target":7}"#)
        // At rest, the hub's next wake-up is the next local midnight, on the hub's clock.
        let reset = try #require(Self.wake(machine.tick(now: 62)))
        #expect(reset + tenOClock - midnight == hours * 3_600)
        #expect(Self.tick(&machine, at: reset - 0.5) == nil)
        #expect(Self.tick(&machine, at: reset) == "null")
        let nextDay = feed.commit(increment: 2, at: reset + tenOClock + 5)
        _ = machine.apply(nextDay, toMetric: "m", committedAt: nil, now: reset + 5)
        #expect(Self.tick(&machine, at: reset + 5.1) == #"{"text":"2","target":2}"#)
    }

    @Test("the first screen to connect after a midnight no tick saw is shown the new day, not yesterday's number")
    func connectAfterAnUntickedReset() throws {
        let feed = SeriesFeed()
        let wallAtZero = Self.october26Midnight - 60
        var machine = try Self.machine(feed, span: .today, aggregate: .sum, wallAtZero: wallAtZero)
        _ = machine.apply(feed.commit(increment: 5, at: wallAtZero + 10), toMetric: "m", committedAt: nil, now: 10)
        _ = machine.disconnect(1, now: 11)  // no screen: the driver's timer is not needed, and no tick runs
        let hello = machine.connect(2, fps: 10, now: 120)
        guard case .send(let text, 2) = hello.first else { Issue.record("no hello: \(hello)"); return }
        #expect(text.hasSuffix(#""tiles":{"t":null}}"#))
    }

    @Test("a change committed after midnight that reaches the hub before its midnight tick starts the new day")
    func changeBeforeTheResetTick() throws {
        let feed = SeriesFeed()
        let wallAtZero = Self.march29Midnight - 60
        var machine = try Self.machine(feed, span: .today, aggregate: .sum, wallAtZero: wallAtZero)
        _ = machine.apply(feed.commit(increment: 5, at: wallAtZero + 10), toMetric: "m", committedAt: nil, now: 10)
        _ = machine.apply(feed.commit(increment: 1, at: wallAtZero + 61), toMetric: "m", committedAt: nil, now: 61)
        // Before any tick: the change itself moved the tile into the new day.
        #expect(TileState.fullJSON(machine.tiles[0].calmState(at: 61)) == #"{"text":"1","target":1}"#)
    }

    @Test("a last 15m window drops each change 15 minutes after it was committed, then shows —")
    func slidingWindowAgesOut() throws {
        let feed = SeriesFeed()
        let start = Self.october25Midnight + 3_600
        var machine = try Self.machine(feed, span: .last(900), aggregate: .sum, wallAtZero: start)
        _ = machine.apply(feed.commit(increment: 5, at: start), toMetric: "m", committedAt: nil, now: 0)
        _ = machine.apply(feed.commit(increment: 7, at: start + 600), toMetric: "m", committedAt: nil, now: 600)
        #expect(Self.tick(&machine, at: 600.1) == #"{"text":"12","target":12}"#)
        let firstOut = try #require(Self.wake(machine.tick(now: 602)))
        #expect(abs(firstOut - 900) < 0.01, "the first change leaves just after 15 minutes")
        #expect(Self.tick(&machine, at: firstOut - 0.01) == nil)
        #expect(Self.tick(&machine, at: firstOut) == #"{"text":"7","target":7}"#)
        let secondOut = try #require(Self.wake(machine.tick(now: firstOut + 2)))
        #expect(abs(secondOut - 1_500) < 0.01)
        #expect(Self.tick(&machine, at: secondOut) == "null")
        #expect(Self.wake(machine.tick(now: secondOut + 2)) == nil, "nothing left to age out")
    }

    @Test("changes that age out together are read again at most once a second")
    func ageOutIsBounded() throws {
        let feed = SeriesFeed()
        let start = Self.march28Midnight + 7_200
        var machine = try Self.machine(feed, span: .last(60), aggregate: .count, wallAtZero: start)
        for step in 0..<20 {
            let now = Double(step) * 0.05
            _ = machine.apply(feed.commit(increment: 1, at: start + now), toMetric: "m", committedAt: nil, now: now)
        }
        // Twenty changes leave the window within a second: it is read when the first leaves and once a second later.
        var shown: [String] = []
        for step in 0...60 {
            let now = 59.9 + Double(step) * 0.05
            _ = machine.tick(now: now)
            let state = TileState.fullJSON(machine.tiles[0].calmState(at: now))
            if shown.last != state { shown.append(state) }
        }
        #expect(shown == [#"{"text":"20","target":20}"#, #"{"text":"19","target":19}"#, "null"])
    }

    @Test("compare: yesterday looks back 23 hours on the spring change day and the arrow shows the change in percent")
    func compareAcrossDaylightSaving() throws {
        let feed = SeriesFeed()
        let yesterday = Self.march28Midnight
        feed.commit(increment: 10, at: yesterday + 9.5 * 3_600)  // 28 March 09:30 CET: before this time yesterday
        feed.commit(increment: 100, at: yesterday + 11 * 3_600)  // 11:00 CET: after it
        let tenOClock = Self.march29Midnight + 9 * 3_600  // 29 March 10:00 CEST (nine hours after midnight)
        var machine = try Self.machine(
            feed, span: .today, aggregate: .sum, compare: .yesterday, kpi: KPIOptions(), wallAtZero: tenOClock)
        _ = machine.apply(feed.commit(increment: 12, at: tenOClock - 60), toMetric: "m", committedAt: nil, now: 0)
        #expect(
            Self.tick(&machine, at: 0.1)
                == #"{"text":"12","target":12,"trend":"up","delta":2,"deltaText":"+20 %","sense":"better","versus":"this time yesterday"}"#)
    }

    @Test(
        "compare without a number in the compared period shows no arrow; against 0 the arrow shows the change itself",
        arguments: [
            (nil, #"{"text":"4","target":4}"#),
            (5, #"{"text":"4","target":4,"trend":"up","delta":4,"deltaText":"+4","sense":"better","versus":"this time yesterday"}"#),
        ] as [(Double?, String)])
    func compareWithoutReference(yesterdayValue: Double?, shown: String) throws {
        let feed = SeriesFeed()
        let wallAtZero = Self.october26Midnight + 3_600
        // A plain value yesterday: its day's sum of increments is 0.
        if let yesterdayValue { feed.commit(value: yesterdayValue, at: Self.october25Midnight + 1_800) }
        var machine = try Self.machine(
            feed, span: .today, aggregate: .sum, compare: .yesterday, kpi: KPIOptions(), wallAtZero: wallAtZero)
        _ = machine.apply(feed.commit(increment: 4, at: wallAtZero), toMetric: "m", committedAt: nil, now: 0)
        #expect(Self.tick(&machine, at: 0.1) == shown)
    }

    @Test("a window that holds no change is null in the hello (the page shows —)")
    func emptyWindowIsNull() throws {
        let feed = SeriesFeed()
        feed.commit(increment: 9, at: Self.march29Midnight - 3_600)
        var machine = try Self.machine(feed, span: .today, aggregate: .sum, wallAtZero: Self.march29Midnight + 60)
        let hello = machine.connect(2, fps: 10, now: 1)
        guard case .send(let text, 2) = hello.first else { Issue.record("no hello"); return }
        #expect(text.hasSuffix(#""tiles":{"t":null}}"#))
    }

    @Test("a window's number the tile cannot show is — (logged once), never an older number, until one it can show")
    func unshowableNumberIsNull() throws {
        let feed = SeriesFeed()
        let start = Self.march28Midnight + 7_200
        let windowed = WindowedValue(
            window: MetricWindow(span: .today, aggregate: .sum, timeZone: Self.berlin), compare: nil, limits: feed.limits,
            series: { feed.series }, at: start)
        let twoColumns = try OdometerOptions(columns: .fixed(2), decimals: 0, prefix: "", suffix: "").odometer()
            .configuration
        let inner = try OdometerTile(tileID: "t", configuration: twoColumns, value: nil, backlog: 8, at: 0)
        var machine = HubStateMachine(
            helloDashboard: #"{"id":"w"}"#,
            tiles: [WindowedTile(inner: inner, windowed: windowed, indicator: nil, wallOffset: start, at: 0)],
            tilesByMetric: ["m": ["t"]], updatedAt: [:],
            configuration: .init(defaultFPS: 10, maxFPS: 60, slowClientTimeout: 5, calm: true))
        var refusals = 0
        func commit(_ increment: Double, at now: Double) {
            let actions = machine.apply(
                feed.commit(increment: increment, at: start + now), toMetric: "m", committedAt: nil, now: now)
            refusals += actions.filter { if case .changeRefused = $0 { true } else { false } }.count
        }
        commit(60, at: 10)
        #expect(machine.tiles[0].calmState(at: 11) != nil)
        commit(50, at: 20)  // 110: three digits
        #expect(machine.tiles[0].calmState(at: 21) == nil, "not 60")
        commit(5, at: 30)  // 115
        #expect(machine.tiles[0].calmState(at: 31) == nil)
        #expect(refusals == 1)
        commit(-30, at: 40)  // 85
        #expect(machine.tiles[0].calmState(at: 41) != nil)
        #expect(refusals == 1)
    }

    @Test("a screen that resumes is shown a window as it stands now: a change that aged out meanwhile is not counted")
    func replayAdvancesTheWindow() throws {
        let feed = SeriesFeed()
        let start = Self.october25Midnight + 3_600
        let windowed = WindowedValue(
            window: MetricWindow(span: .last(900), aggregate: .sum, timeZone: Self.berlin), compare: nil,
            limits: feed.limits, series: { feed.series }, at: start)
        let inner = try CounterTile(
            tileID: "t", configuration: CounterConfiguration(duration: 1, easing: .linear, format: NumberFormat(format: "%.0f")),
            value: nil, backlog: 8, at: 0)
        var machine = HubStateMachine(
            helloDashboard: #"{"id":"w"}"#,
            tiles: [WindowedTile(inner: inner, windowed: windowed, indicator: nil, wallOffset: start, at: 0)],
            tilesByMetric: ["m": ["t"]], updatedAt: [:],
            configuration: .init(defaultFPS: 10, maxFPS: 60, slowClientTimeout: 5), epoch: "e1", storeSeq: 0)
        _ = machine.apply(feed.commit(increment: 5, at: start), toMetric: "m", committedAt: nil, seq: 1, now: 0)
        _ = machine.apply(feed.commit(increment: 7, at: start + 600), toMetric: "m", committedAt: nil, seq: 2, now: 600)
        // The screen last saw seq 1 and comes back after the 5 left the window (at 900 s).
        _ = machine.connect(2, fps: nil, since: ResumePoint(epoch: "e1", seq: 1), now: 950)
        let own = try #require(machine.sessions[2]?.ownTiles[0]?.tile as? WindowedTile<Counter>)
        #expect(own.windowed.value == 7, "as the hub's tile: \((machine.tiles[0] as? WindowedTile<Counter>)?.windowed.value as Any)")
        #expect((own.windowDue ?? .infinity) > 950, "nothing left due")
    }

    @Test(
        "one change at a time, the tile's number is the window's own answer over the whole series",
        arguments: WindowAggregate.allCases)
    func incrementalMatchesTheSeries(aggregate: WindowAggregate) throws {
        let feed = SeriesFeed()
        let midnight = Self.october25Midnight
        feed.commit(value: 50, at: midnight - 30)
        let window = MetricWindow(span: .today, aggregate: aggregate, timeZone: Self.berlin)
        var windowed = WindowedValue(
            window: window, compare: nil, limits: feed.limits, series: { feed.series }, at: midnight + 1)
        let steps: [(increment: Double?, value: Double?)] = [(3, nil), (nil, 20), (-4, nil), (nil, 90), (2.5, nil)]
        for (index, step) in steps.enumerated() {
            let time = midnight + 3_600 * Double(index + 1)
            guard case .value(_, _, _, _, let point?) = feed.commit(increment: step.increment, value: step.value, at: time)
            else { Issue.record("no stored point"); return }
            _ = windowed.add(point, at: time)
            #expect(windowed.value == window.value(of: feed.series, at: time, limits: feed.limits), "after \(index + 1)")
        }
    }
}
