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

/// A source's health as a change (kind 13): the bytes docs/store.md describes (worked out from that description),
/// and a journal that holds one opens again.
@Suite("Source health change")
struct StoredSourceHealthTests {
    @Test(
        "a source's health is written as docs/store.md describes, and reads back as itself",
        arguments: [
            (StoredSourceHealth(id: "prom", metrics: ["err"], reason: "down", seq: 20, updatedAt: 1000),
             "0d" + "1400000000000000" + "04000000" + "70726f6d" + "0000000000408f40" + "01" + "04000000" + "646f776e"
                + "01000000" + "03000000" + "657272"),
            (StoredSourceHealth(id: "prom", metrics: ["err"], reason: nil, seq: 21, updatedAt: 1000.5),
             "0d" + "1500000000000000" + "04000000" + "70726f6d" + "0000000000448f40" + "00" + "01000000" + "03000000"
                + "657272"),
        ])
    func codec(_ health: StoredSourceHealth, hex: String) {
        let change = StoreChange.sourceHealth(health)
        #expect(change.payload.map { String(format: "%02x", $0) }.joined() == hex)
        #expect(StoreChange(payload: change.payload[...]) == change)
        #expect(StoreChange(payload: change.payload.dropLast()) == nil)
        #expect(change.sequenceCount == 1)
    }

    @Test("a journal holding a source's health opens again, its sequence kept, no state left by it")
    func journal() async throws {
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        let store = try MetricStore(directory: folder.path, logger: Logger(label: "test"))
        let committed = await withCheckedContinuation { continuation in
            store.commit(.sourceHealth(StoredSourceHealth(id: "prom", metrics: ["err"], reason: "cannot connect"))) {
                continuation.resume(returning: $0)
            }
        }
        #expect(try committed.get().lastSeq == 1)
        store.close()
        let reopened = try MetricStore(directory: folder.path, logger: Logger(label: "test"))
        defer { reopened.close() }
        #expect(reopened.lastSeq == 1)
        #expect(reopened.all().isEmpty)
    }
}
