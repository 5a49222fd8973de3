import Testing

@testable import RollboardCore
@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardMetrics
@testable import RollboardRedisLog
@testable import RollboardSources

/// The journal's upkeep, driven with explicit sizes and monotonic times: no disk, no clocks, no sleeping.
@Suite("Journal upkeep")
struct JournalUpkeepTests {
    private static func upkeep() -> JournalUpkeep {
        JournalUpkeep(threshold: 1_000, retryInterval: 2)
    }

    @Test(
        "a write compacts once the journal is past the threshold",
        arguments: [(999, false), (1_000, false), (1_001, true), (50_000, true)])
    func compactsPastThreshold(size: Int, compacts: Bool) {
        #expect(Self.upkeep().wrote(journalSize: size) == (compacts ? [.compact] : []))
    }

    @Test("after a failed compaction the next try waits until the journal grew by another threshold, told once per streak")
    func compactionRetryAfterGrowth() {
        var upkeep = Self.upkeep()
        #expect(upkeep.compactionFailed(journalSize: 1_200) == [.compactionFailing(retryAtBytes: 2_200)])
        let sizes: [(Int, [JournalUpkeep.Action])] = [(1_300, []), (2_200, []), (2_201, [.compact])]
        for (size, expected) in sizes {
            #expect(upkeep.wrote(journalSize: size) == expected, "at \(size) bytes")
        }
        #expect(upkeep.compactionFailed(journalSize: 2_300) == [], "the same streak is not told again")
        #expect(upkeep.wrote(journalSize: 3_300) == [] && upkeep.wrote(journalSize: 3_301) == [.compact])
        #expect(upkeep.compacted() == [.compactionRecovered])
        #expect(upkeep.wrote(journalSize: 1_001) == [.compact], "the threshold alone counts again")
        #expect(upkeep.compacted() == [], "a compaction that never failed is not news")
    }

    @Test("a clean write failure tries the journal again every interval until it takes writes")
    func retryAfterFullDisk() {
        var upkeep = Self.upkeep()
        #expect(upkeep.writeFailedCleanly(now: 10) == [.wake(at: 12)])
        #expect(upkeep.timerFired(now: 11.9) == [.wake(at: 12)], "not due yet: armed again")
        #expect(upkeep.timerFired(now: 12) == [.tryWriting])
        #expect(upkeep.timerFired(now: 12.5) == [], "one try at a time")
        #expect(upkeep.stillFull(now: 12.1) == [.wake(at: 14.1)])
        #expect(upkeep.timerFired(now: 14.1) == [.tryWriting])
        #expect(upkeep.writable() == [] && upkeep.retryAt == nil)
        #expect(upkeep.timerFired(now: 100) == [], "nothing planned once it works")
    }

    @Test("a journal in an unknown state, or a closed store, is never tried again")
    func nothingAfterTheEnd() {
        var failed = Self.upkeep()
        _ = failed.writeFailedCleanly(now: 0)
        #expect(failed.failedForGood() == [.wake(at: nil)])
        #expect(failed.timerFired(now: 5) == [])
        var closed = Self.upkeep()
        _ = closed.writeFailedCleanly(now: 0)
        #expect(closed.close() == [.wake(at: nil)])
        #expect(closed.timerFired(now: 5) == [] && closed.writeFailedCleanly(now: 5) == [] && closed.close() == [])
        #expect(closed.wrote(journalSize: 10_000) == [], "a closed store compacts nothing")
    }
}
