import Foundation
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

@Suite("A store facing disk faults refuses changes and never loses what it acknowledged")
final class MetricStoreFaultTests: StoreFolderTest {
    let folder = TemporaryDirectory()

    deinit {
        folder.remove()
    }

    /// The hole an attack found: the fresh journal could not be opened after it replaced the old one, appends went
    /// to the unlinked old file, were acknowledged, and were gone after a restart (with their seqs reused).
    @Test("a compaction that cannot open its fresh journal keeps every acknowledged value and sequence number")
    func compactionWithoutDescriptors() async throws {
        let faults = StoreFaults()
        faults.inject(.openNewJournal, errno: EMFILE, times: 1_000)
        let store = try open(compactionThreshold: 512, faults: faults)
        var acknowledged: [StoredMetric] = []
        for value in 1...60 { acknowledged.append(try await store.append("a", Double(value))) }
        #expect(store.statistics.compactions == 0)
        #expect(store.statistics.failedCompactions > 0)
        #expect(store.failure == nil)
        store.close()

        let reopened = try open()
        #expect(reopened.history("a").map(\.seq) == acknowledged.map(\.seq))
        #expect(reopened.current("a") == acknowledged.last)
        #expect(try await reopened.append("a", 61).seq == 61)
        reopened.close()
    }

    @Test("a failing compaction is retried only after the journal has grown by another threshold, not per commit")
    func compactionBackoff() async throws {
        let faults = StoreFaults()
        faults.inject(.openNewJournal, errno: ENOSPC, times: 1_000)
        let threshold = 20 * StoreChange.metricsRecordSize(id: "a")
        let store = try open(compactionThreshold: threshold, faults: faults)
        for value in 1...200 { _ = try await store.append("a", Double(value)) }
        let attempts = store.statistics.failedCompactions
        #expect(attempts >= 5 && attempts <= 10, "\(attempts) attempts for 200 commits at 20 records per threshold")
        faults.clear()
        for value in 201...240 { _ = try await store.append("a", Double(value)) }
        #expect(store.statistics.compactions >= 1)
        store.close()
        let reopened = try open()
        #expect(reopened.lastSeq == 240)
        reopened.close()
    }

    @Test("a folder that cannot be synced after a compaction stops the store, and nothing acknowledged is lost")
    func compactionFolderSyncFails() async throws {
        let faults = StoreFaults()
        faults.inject(.syncFolder, errno: EIO)
        let store = try open(compactionThreshold: 512, faults: faults)
        var acknowledged: [StoredMetric] = []
        var refused = 0
        for value in 1...60 {
            switch await store.append([MetricUpdate(id: "a", value: Double(value))]) {
            case .success(let stored): acknowledged += stored
            case .failure(let error):
                #expect(error.isWriteFailure)
                refused += 1
            }
        }
        #expect(refused > 0)
        #expect(store.failure?.description.contains("restart the server") == true)
        store.close()
        let reopened = try open()
        #expect(reopened.current("a") == acknowledged.last)
        #expect(reopened.lastSeq == acknowledged.last?.seq)
        reopened.close()
    }

    @Test("a full disk refuses changes with a write failure and accepts them again once the journal takes writes")
    func fullDiskRecovers() async throws {
        let faults = StoreFaults()
        // The retry timer runs on a manual clock: nothing is tried before the test moves it.
        let clock = ManualClock(at: 100)
        let store = try open(faults: faults, upkeepClock: clock.clock)
        let first = try await store.append("a", 1)
        faults.inject(.append, errno: ENOSPC)
        let refused = await store.append([MetricUpdate(id: "a", value: 2)])
        #expect(throws: StoreError.self) { try refused.get() }
        #expect(store.failure?.isWriteFailure == true)
        let whileFailed = await store.append([MetricUpdate(id: "a", value: 3)])
        #expect(throws: StoreError.self) { try whileFailed.get() }
        #expect(clock.armed == [100 + MetricStore.writeRetryInterval], "one try planned, the interval later")
        clock.advance(to: 100 + MetricStore.writeRetryInterval - 0.01)
        #expect(store.failure?.isWriteFailure == true, "not tried before it is due")
        clock.advance(to: 100 + MetricStore.writeRetryInterval)
        #expect(await clock.wait { store.failure == nil })
        #expect(clock.armed == [nil], "nothing more planned once the journal takes writes")
        let after = try await store.append("a", 4)
        #expect(after.seq > first.seq)
        store.close()

        let reopened = try open()
        #expect(reopened.history("a").map(\.value) == [1, 4])
        #expect(reopened.statistics.discardedBytes == 0)
        reopened.close()
    }

    @Test("a failed sync leaves the store refusing changes until it is restarted")
    func failedSyncIsFinal() async throws {
        let faults = StoreFaults()
        faults.inject(.sync, errno: EIO)
        let store = try open(faults: faults)
        let refused = await store.append([MetricUpdate(id: "a", value: 1)])
        #expect(throws: StoreError.self) { try refused.get() }
        #expect(store.failure?.description.contains("restart the server") == true)
        store.close()
    }

    @Test("a sync stuck on the disk shows in unconfirmedSeconds until it returns")
    func stuckSyncIsVisible() async throws {
        let faults = StoreFaults()
        faults.stall(.sync)
        let clock = ManualClock(at: 100)
        let store = try open(faults: faults, upkeepClock: clock.clock)
        #expect(store.unconfirmedSeconds == nil)
        let done = Synchronized(false)
        let answered = Changes()
        store.append([MetricUpdate(id: "a", value: 1)]) { _ in
            done.update { $0 = true }
            answered.changed()
        }
        #expect(await faults.changes.wait { faults.stalled == 1 }, "the sync is stuck")
        #expect(store.unconfirmedSeconds == 0)
        clock.step(to: 100.5)
        #expect(store.unconfirmedSeconds == 0.5, "the wait grows with the store's clock")
        #expect(!done.update { $0 })
        faults.release()
        #expect(await answered.wait { done.update { $0 } })
        #expect(store.unconfirmedSeconds == nil)
        store.close()
    }
}
