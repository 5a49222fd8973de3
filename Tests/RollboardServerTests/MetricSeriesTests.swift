import Foundation
import Logging
import RollboardTestSupport
import Testing

@testable import RollboardCore
@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardRedisLog
@testable import RollboardAccess
@testable import RollboardHub
@testable import RollboardAPI
@testable import RollboardServer

/// A metric's series with explicit commit times: raw points within their retention and count, minute and hour
/// rollups (first, last, min, max, count, sum of increments), merged steps, and the same series after a restart and
/// a compaction as before.
@Suite("Metric series")
struct MetricSeriesTests {
    /// 2026-11-26T09:00:00Z.
    static let nine = 1_795_683_600.0

    static func metric(_ value: Double, seq: UInt64, at time: Double, increment: Double? = nil) -> StoredMetric {
        var metric = StoredMetric(id: "orders", value: value, seq: seq, updatedAt: time)
        metric.increment = increment
        return metric
    }

    @Test("each minute and hour rolls up first, last, min, max, count and the sum of increments")
    func rollups() {
        var series = MetricSeries()
        let limits = SeriesLimits()
        let changes: [(Double, Double, Double?)] = [
            (0, 10, nil), (20, 13, 3), (59.999, 11, -2), (60, 20, nil), (3_599, 25, 5), (3_600, 1, nil),
        ]
        for (index, (offset, value, increment)) in changes.enumerated() {
            series.add(
                Self.metric(value, seq: UInt64(index + 1), at: Self.nine + offset, increment: increment), limits: limits
            )
        }
        #expect(series.minutes.map(\.start) == [1_795_683_600, 1_795_683_660, 1_795_687_140, 1_795_687_200])
        let first = series.minutes[0]
        #expect([first.first, first.last, first.min, first.max, first.incrementSum] == [10, 11, 10, 13, 1])
        #expect(first.count == 3)
        #expect(series.hours.map(\.start) == [1_795_683_600, 1_795_687_200])
        #expect(
            [series.hours[0].first, series.hours[0].last, series.hours[0].min, series.hours[0].max] == [10, 25, 10, 25])
        #expect(series.hours[0].count == 5)
        #expect(series.hours[0].incrementSum == 6)
        #expect(series.raw.map(\.seq) == [1, 2, 3, 4, 5, 6])
    }

    @Test("a commit time that steps back lands in its own minute, kept in order")
    func timeStepsBack() {
        var series = MetricSeries()
        for (seq, offset) in [(1, 130.0), (2, 10), (3, 70), (4, 15)] {
            series.add(Self.metric(Double(seq), seq: UInt64(seq), at: Self.nine + offset), limits: SeriesLimits())
        }
        #expect(series.minutes.map { $0.start - Int64(Self.nine) } == [0, 60, 120])
        #expect(series.minutes[0].count == 2)
        #expect(series.minutes[0].first == 2)
        #expect(series.minutes[0].last == 4)
    }

    @Test("raw points older than the retention before the newest commit, or beyond the count, are gone")
    func retention() {
        var limits = SeriesLimits(retention: 3_600)
        limits.maxPoints = 2_000
        var series = MetricSeries()
        for index in 0..<3_000 {
            series.add(
                Self.metric(Double(index), seq: UInt64(index + 1), at: Self.nine + Double(index) * 2), limits: limits)
        }
        let newest = Self.nine + 2 * 2_999
        let shown = series.points(from: 0, to: .infinity, limits: limits)
        #expect(shown.first?.time == newest - 3_600)
        #expect(shown.count == 1_801)
        #expect(series.raw.count <= 1_801 + MetricSeries.trimChunk, "memory stays within the bound and one chunk")
        limits.retention = 86_400
        var capped = MetricSeries()
        for index in 0..<5_000 {
            capped.add(
                Self.metric(Double(index), seq: UInt64(index + 1), at: Self.nine + Double(index)), limits: limits)
        }
        let answered = capped.points(from: 0, to: .infinity, limits: limits)
        #expect(answered.count == 2_000)
        #expect(answered.first?.seq == 3_001)
        #expect(capped.raw.count < 2_000 + MetricSeries.trimChunk)
    }

    @Test("minute rollups last 35 days and hour rollups 400, counted back from the newest commit")
    func rollupRetention() {
        var series = MetricSeries()
        let limits = SeriesLimits()
        series.add(Self.metric(1, seq: 1, at: Self.nine), limits: limits)
        series.add(Self.metric(2, seq: 2, at: Self.nine + 35 * 86_400), limits: limits)
        #expect(series.minutes.count == 2)
        series.add(Self.metric(3, seq: 3, at: Self.nine + 35 * 86_400 + 60), limits: limits)
        #expect(series.minutes.map(\.first) == [2, 3])
        #expect(series.hours.count == 2)
        series.add(Self.metric(4, seq: 4, at: Self.nine + 401 * 86_400), limits: limits)
        #expect(series.hours.map(\.first) == [2, 4], "the hour 366 days back stays, the one 401 days back is gone")
        #expect(series.minutes.map(\.first) == [4])
    }

    static let steps: [(step: Int64, starts: [Int64])] = [
        (300, [0, 300, 3_600]), (3_600, [0, 3_600]), (7_200, [-3_600, 3_600]),
    ]

    @Test(
        "a step of several minutes or hours merges the rollups into buckets aligned on multiples of the step since 1970",
        arguments: steps)
    func mergedSteps(step: Int64, starts: [Int64]) {
        var series = MetricSeries()
        for (seq, offset) in [(1, 0.0), (2, 61), (3, 299), (4, 300), (5, 3_700)] {
            series.add(
                Self.metric(Double(seq), seq: UInt64(seq), at: Self.nine + offset, increment: 1), limits: SeriesLimits()
            )
        }
        let buckets = series.buckets(from: Self.nine, to: Self.nine + 7_200, step: step)
        #expect(buckets.map { $0.start - Int64(Self.nine) } == starts)
        #expect(buckets.map(\.count).reduce(0, +) == 5)
        #expect(buckets.map(\.incrementSum).reduce(0, +) == 5)
        #expect(buckets.last?.last == 5)
    }

    @Test("a restarted journal, from its snapshot and journal, has exactly the series of the store that never stopped")
    func survivesRestartAndCompaction() async throws {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        let now = Synchronized(Self.nine)
        let clock: @Sendable () -> Double = { now.update { $0 } }
        let store = try MetricStore(directory: folder.path, logger: Logger(label: "test"), clock: clock, faults: nil)
        for index in 0..<40 {
            now.update { $0 += 37 }
            let request = MetricCommitRequest(metrics: [IncrementTests.increment("orders", Double(index % 5))])
            _ = try await IncrementTests.commit(store, request).get()
            if index == 25 { await store.compact() }
        }
        let before = store.snapshot.series("orders")
        store.close()
        let reopened = try MetricStore(directory: folder.path, logger: Logger(label: "test"), clock: clock, faults: nil)
        defer { reopened.close() }
        #expect(reopened.statistics.recoveredRecords == 14, "part from the snapshot, part replayed from the journal")
        #expect(reopened.snapshot.series("orders") == before)
        #expect(before.raw.count == 40)
        #expect(before.minutes.map(\.incrementSum).reduce(0, +) == 80)
    }

    @Test("two nodes on one Redis hold the same series", .enabled(if: RedisServerProcess.shouldRun))
    func sameOnEveryNode() async throws {
        let fixture = try ChangeLogContractTests.Fixture(.redis)
        let a = try fixture.open()
        defer { a.close() }
        let b = try fixture.open()
        defer { b.close() }
        for index in 0..<30 {
            let node = index % 2 == 0 ? a : b
            _ = try await IncrementTests.commit(
                node, MetricCommitRequest(metrics: [IncrementTests.increment("orders", 1)])
            ).get()
        }
        #expect(await a.waitForChanges { a.lastSeq == 30 })
        #expect(await b.waitForChanges { b.lastSeq == 30 })
        let late = try fixture.open()
        defer { late.close() }
        #expect(a.snapshot.series("orders").raw.count == 30)
        #expect(a.snapshot.series("orders") == b.snapshot.series("orders"))
        #expect(late.snapshot.series("orders") == a.snapshot.series("orders"), "a node started later reads the same")
    }
}
