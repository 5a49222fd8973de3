import Testing

@testable import RollboardCore
@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardMetrics
@testable import RollboardRedisLog
@testable import RollboardAccess
@testable import RollboardHub
@testable import RollboardAPI
@testable import RollboardServer

@Suite("A store recovers what it acknowledged after a restart and cuts away what is damaged")
final class MetricStoreRecoveryTests: StoreFolderTest {
    let folder = TemporaryDirectory()

    deinit {
        folder.remove()
    }

    /// Ways a journal's tail gets damaged, and what each does to its bytes.
    static let tailDamage: [(name: String, damage: @Sendable ([UInt8]) -> [UInt8])] = [
        ("cut inside the last record", { Array($0.dropLast(5)) }),
        ("cut inside the last record's header", { Array($0.dropLast(StoreChange.metricsRecordSize(id: "c") - 3)) }),
        (
            "the last record's payload changed",
            {
                var bytes = $0; bytes[bytes.count - 2] ^= 0x40; return bytes
            }
        ),
        ("garbage appended", { $0 + [0xde, 0xad, 0xbe, 0xef, 0x01, 0x02, 0x03, 0x04, 0x05] }),
        ("zeros appended", { $0 + [UInt8](repeating: 0, count: 4096) }),
    ]

    @Test("appended values are there after the store is reopened, with their seq, time and history")
    func appendAndRecover() async throws {
        let store = try open()
        let first = try await store.append("revenue", 10.5)
        let second = try await store.append("revenue", 20)
        _ = try await store.append("orders", 7)
        #expect(first.seq == 1)
        #expect(second.seq == 2)
        #expect(store.current("revenue")?.value == 20)
        store.close()

        let reopened = try open()
        #expect(reopened.current("revenue") == StoredMetric(id: "revenue", value: 20, seq: 2, updatedAt: 1001))
        #expect(reopened.current("orders")?.seq == 3)
        #expect(reopened.history("revenue").map(\.value) == [10.5, 20])
        #expect(reopened.lastSeq == 3)
        #expect(reopened.epoch == store.epoch)
        #expect(reopened.statistics.recoveredRecords == 3)
        #expect(try await reopened.append("orders", 8).seq == 4)
        reopened.close()
    }

    @Test("a batch gets consecutive sequence numbers and keeps its animation hints")
    func batch() async throws {
        let store = try open()
        let stored = try await store.append([
            MetricUpdate(id: "a", value: 1, interval: 3, animated: true),
            MetricUpdate(id: "b", value: -2.25, interval: nil, animated: false),
        ]).get()
        #expect(stored.map(\.seq) == [1, 2])
        store.close()
        let reopened = try open()
        #expect(reopened.current("a")?.interval == 3)
        #expect(reopened.current("b") == StoredMetric(id: "b", value: -2.25, seq: 2, updatedAt: 1000, animated: false))
        reopened.close()
    }

    @Test("the epoch stays the same across restarts and differs between stores")
    func epoch() throws {
        let store = try open()
        let epoch = store.epoch
        store.close()
        let reopened = try open()
        #expect(reopened.epoch == epoch)
        #expect(epoch.count == 16)
        reopened.close()
        let other = TemporaryDirectory()
        defer { other.remove() }
        let otherStore = try MetricStore(directory: other.path, logger: storeLogger)
        #expect(otherStore.epoch != epoch)
        otherStore.close()
    }

    @Test("a text tile's message and a carousel's slides survive a restart with their seq, colours and alt texts")
    func textAndSlidesRecover() async throws {
        let store = try open()
        let seen = HeardChanges(store)
        _ = try await store.append("revenue", 1)
        let first = try await store.setText("notice", "Deploy freeze until Friday", color: "#e67e22")
        let slides = try await store.setSlides("news", mixedSlides)
        let cleared = try await store.setText("notice", "")
        #expect(first == StoredText(id: "notice", text: "Deploy freeze until Friday", color: "#e67e22", seq: 2, updatedAt: 1001))
        #expect(slides == StoredSlides(id: "news", slides: mixedSlides, seq: 3, updatedAt: 1002))
        #expect(seen.all == [
            .metrics([StoredMetric(id: "revenue", value: 1, seq: 1, updatedAt: 1000)]), .text(first), .slides(slides),
            .text(cleared),
        ])
        store.close()

        let reopened = try open()
        #expect(reopened.text("notice") == StoredText(id: "notice", text: "", seq: 4, updatedAt: 1003))
        #expect(reopened.slides("news") == slides)
        #expect(reopened.text("news") == nil)
        #expect(reopened.slides("notice") == nil)
        #expect(reopened.statistics.recoveredRecords == 4)
        #expect(reopened.lastSeq == 4)
        reopened.close()
    }

    @Test("a wheel target survives a restart")
    func wheelTarget() async throws {
        let store = try open()
        let stored = try await store.setWheel("status", .progress(0.4)).get()
        #expect(stored.seq == 1)
        store.close()
        let reopened = try open()
        #expect(reopened.wheel("status") == StoredWheel(id: "status", target: .progress(0.4), seq: 1, updatedAt: 1000))
        #expect(reopened.allWheels().count == 1)
        reopened.close()
    }

    @Test("history keeps only the configured number of values")
    func historyBound() async throws {
        let store = try open(historyLimit: 5)
        for value in 1...12 { _ = try await store.append("a", Double(value)) }
        #expect(store.history("a").map(\.value) == [8, 9, 10, 11, 12])
        store.close()
        let reopened = try open(historyLimit: 5)
        #expect(reopened.history("a").map(\.value) == [8, 9, 10, 11, 12])
        reopened.close()
    }

    @Test("a damaged journal tail is cut on recovery and everything before it is kept", arguments: tailDamage)
    func damagedTail(name: String, damage: @Sendable ([UInt8]) -> [UInt8]) async throws {
        let journal = try await journalBytes(appending: [("a", 1), ("b", 2), ("c", 3)])
        try folder.write("store/journal", damage(journal))

        let reopened = try open()
        #expect(reopened.current("a")?.value == 1)
        #expect(reopened.current("b")?.value == 2)
        let garbageOnly = name.hasSuffix("appended")
        #expect((reopened.current("c") != nil) == garbageOnly)
        #expect(reopened.statistics.discardedBytes > 0)
        #expect(folder.files("store").contains { $0.hasPrefix("journal.damaged-") })
        let next = try await reopened.append("d", 4)
        #expect(next.seq == (garbageOnly ? 4 : 3))
        reopened.close()

        let again = try open()
        #expect(again.current("d")?.value == 4)
        #expect(again.statistics.discardedBytes == 0)
        again.close()
    }

    @Test("a CRC mismatch in the middle stops recovery there and keeps a copy of the rest")
    func crcMismatchInTheMiddle() async throws {
        var journal = try await journalBytes(appending: [("a", 1), ("b", 2), ("c", 3)])
        let secondPayload = JournalFile.headerSize + StoreChange.metricsRecordSize(id: "a") + 12
        journal[secondPayload] ^= 0xff
        try folder.write("store/journal", journal)

        let reopened = try open()
        #expect(reopened.current("a")?.value == 1)
        #expect(reopened.current("b") == nil)
        #expect(reopened.current("c") == nil)
        let copies = folder.files("store").filter { $0.hasPrefix("journal.damaged-") }
        #expect(copies.count == 1)
        reopened.close()
    }

    @Test("a journal record of an unknown kind is damage: recovery keeps what comes before it")
    func unknownRecordKind() async throws {
        let store = try open()
        _ = try await store.setText("notice", "kept")
        store.close()
        let journal = try folder.read("store/journal")
        try folder.write("store/journal", journal + StoreChange.frame([9, 1, 2, 3]))

        let reopened = try open()
        #expect(reopened.text("notice")?.text == "kept")
        #expect(reopened.statistics.discardedBytes == StoreChange.frameHeaderSize + 4)
        reopened.close()
    }

    @Test("a journal from another store is refused rather than mixed in")
    func foreignJournal() async throws {
        let store = try open()
        _ = try await store.append("a", 1)
        await store.compact()
        store.close()
        var journal = try folder.read("store/journal")
        journal[8] ^= 0x01
        try folder.write("store/journal", journal)
        let error = #expect(throws: StoreError.self) { try open() }
        #expect(error?.description.contains("belongs to another store") == true)
    }

    @Test("a second store on the same folder is refused while the first is open")
    func lock() throws {
        let store = try open()
        #expect(throws: StoreError.self) { try open() }
        store.close()
    }

    @Test("a closed store refuses changes")
    func closed() async throws {
        let store = try open()
        store.close()
        let result = await store.append([MetricUpdate(id: "a", value: 1)])
        #expect(throws: StoreError.closed) { try result.get() }
    }
}
