import Dispatch
import Foundation
import Logging
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

private let logger = Logger(label: "test.store")

/// A clock that returns 1000, 1001, 1002, … seconds.
private func steppingClock() -> @Sendable () -> Double {
    let counter = Counter()
    return { Double(1000 + counter.next()) }
}

private final class Counter: Sendable {
    private let value = Synchronized(0)
    func next() -> Int {
        value.update { value in
            defer { value += 1 }
            return value
        }
    }
}

extension StoreChange {
    /// The framed size of a one-metric record with the given id.
    static func metricsRecordSize(id: String) -> Int {
        frameHeaderSize + 1 + 4 + 8 + 4 + id.utf8.count + 8 + 8 + 8 + 1
    }
}

extension MetricStore {
    /// `append`, awaiting its completion.
    func append(_ updates: [MetricUpdate]) async -> Result<[StoredMetric], StoreError> {
        await withCheckedContinuation { continuation in
            append(updates) { continuation.resume(returning: $0) }
        }
    }

    func append(_ id: String, _ value: Double) async throws -> StoredMetric {
        try await append([MetricUpdate(id: id, value: value)]).get()[0]
    }

    func setWheel(_ id: String, _ target: WheelTarget) async -> Result<StoredWheel, StoreError> {
        await withCheckedContinuation { continuation in
            setWheel(id, target: target) { continuation.resume(returning: $0) }
        }
    }

    func setText(_ id: String, _ text: String, color: String? = nil) async throws -> StoredText {
        try await withCheckedContinuation { continuation in
            setText(id, text: text, color: color) { continuation.resume(returning: $0) }
        }.get()
    }

    func setSlides(_ id: String, _ slides: [ProducerSlide]) async throws -> StoredSlides {
        try await withCheckedContinuation { continuation in
            setSlides(id, slides: slides) { continuation.resume(returning: $0) }
        }.get()
    }
}

/// Slides of every kind: a text with and without a colour, an image with and without a description.
private let mixedSlides: [ProducerSlide] = [
    .text("Welcome, visitors", color: nil),
    .image("https://example.com/a.png", alt: "The new lobby", color: nil),
    .text("Fire drill at 3", color: "#c0392b"),
    .image("data:image/png;base64,iVBORw0KGgo=", alt: nil, color: "#fff"),
]

@Suite("MetricStore")
struct MetricStoreTests {
    let folder = TemporaryDirectory()

    func open(
        historyLimit: Int = ServerSettings.Defaults.historyLength,
        compactionThreshold: Int = ServerSettings.Defaults.journalCompactionBytes, faults: StoreFaults? = nil,
        upkeepClock: FrameClock = .monotonic()
    ) throws -> MetricStore {
        let directory = folder.path + "/store"
        return try MetricStore.reopening(directory) {
            try MetricStore(
                directory: directory, historyLimit: historyLimit, compactionThreshold: compactionThreshold,
                logger: logger, clock: steppingClock(), faults: faults, upkeepClock: upkeepClock)
        }
    }

    @Test("appended values are there after the store is reopened, with their seq, time and history")
    func appendAndRecover() async throws {
        defer { folder.remove() }
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
        defer { folder.remove() }
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
        defer { folder.remove() }
        let store = try open()
        let epoch = store.epoch
        store.close()
        let reopened = try open()
        #expect(reopened.epoch == epoch)
        #expect(epoch.count == 16)
        reopened.close()
        let other = TemporaryDirectory()
        defer { other.remove() }
        let otherStore = try MetricStore(directory: other.path, logger: logger)
        #expect(otherStore.epoch != epoch)
        otherStore.close()
    }

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

    @Test("a damaged journal tail is cut on recovery and everything before it is kept", arguments: tailDamage)
    func damagedTail(name: String, damage: @Sendable ([UInt8]) -> [UInt8]) async throws {
        defer { folder.remove() }
        let store = try open()
        _ = try await store.append("a", 1)
        _ = try await store.append("b", 2)
        _ = try await store.append("c", 3)
        store.close()
        let journal = try folder.read("store/journal")
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
        defer { folder.remove() }
        let store = try open()
        _ = try await store.append("a", 1)
        _ = try await store.append("b", 2)
        _ = try await store.append("c", 3)
        store.close()
        var journal = try folder.read("store/journal")
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

    @Test("compaction keeps the last values, history and sequence, and empties the journal")
    func compaction() async throws {
        defer { folder.remove() }
        let store = try open(historyLimit: 3)
        for value in 1...10 { _ = try await store.append("a", Double(value)) }
        _ = await store.setWheel("status", .index(2))
        await store.compact()
        #expect(try folder.read("store/journal").count == JournalFile.headerSize)
        #expect(store.statistics.compactions == 1)
        _ = try await store.append("b", 99)
        store.close()

        let reopened = try open(historyLimit: 3)
        #expect(reopened.current("a") == StoredMetric(id: "a", value: 10, seq: 10, updatedAt: 1009))
        #expect(reopened.history("a").map(\.value) == [8, 9, 10])
        #expect(reopened.wheel("status")?.target == .index(2))
        #expect(reopened.current("b")?.seq == 12)
        #expect(reopened.lastSeq == 12)
        #expect(reopened.epoch == store.epoch)
        reopened.close()
    }

    @Test("a text tile's message and a carousel's slides survive a restart with their seq, colours and alt texts")
    func textAndSlidesRecover() async throws {
        defer { folder.remove() }
        let store = try open()
        let seen = Synchronized<[StoreChange]>([])
        store.subscribe { change in seen.update { $0.append(change) } }
        _ = try await store.append("revenue", 1)
        let first = try await store.setText("notice", "Deploy freeze until Friday", color: "#e67e22")
        let slides = try await store.setSlides("news", mixedSlides)
        let cleared = try await store.setText("notice", "")
        #expect(first == StoredText(id: "notice", text: "Deploy freeze until Friday", color: "#e67e22", seq: 2, updatedAt: 1001))
        #expect(slides == StoredSlides(id: "news", slides: mixedSlides, seq: 3, updatedAt: 1002))
        #expect(seen.update { $0 } == [
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

    @Test("carousel commands are numbered in the one sequence and journaled, and leave no state after a restart")
    func carouselCommandsAreSequenced() async throws {
        defer { folder.remove() }
        let store = try open()
        let seen = Synchronized<[StoreChange]>([])
        store.subscribe { change in seen.update { $0.append(change) } }
        _ = try await store.append("revenue", 1)
        var commands: [StoredCarouselCommand] = []
        for action in [CarouselAction.goto(page: 3), .next, .previous] {
            commands.append(try await withCheckedContinuation { continuation in
                store.commandCarousel("news", action: action) { continuation.resume(returning: $0) }
            }.get())
        }
        _ = try await store.append("revenue", 2)
        #expect(commands.map(\.seq) == [2, 3, 4])
        #expect(commands[0] == StoredCarouselCommand(id: "news", action: .goto(page: 3), seq: 2, updatedAt: 1001))
        #expect(seen.update { $0.map(\.lastSeq) } == [1, 2, 3, 4, 5])
        #expect(seen.update { $0[1] } == .carousel(commands[0]))
        store.close()

        let reopened = try open()
        #expect(reopened.statistics.recoveredRecords == 5)
        #expect(reopened.lastSeq == 5)
        #expect(reopened.current("revenue")?.seq == 5)
        await reopened.compact()
        reopened.close()
        let compacted = try open()
        #expect(compacted.lastSeq == 5, "the snapshot keeps the sequence the commands used")
        compacted.close()
    }

    @Test("an operator's announcements and reloads are numbered in the one sequence, journaled, and leave no state")
    func screenCommandsAreSequenced() async throws {
        defer { folder.remove() }
        let store = try open()
        let seen = Synchronized<[StoreChange]>([])
        store.subscribe { change in seen.update { $0.append(change) } }
        var commands: [StoredScreenCommand] = []
        for action in [
            StoredScreenCommand.Action.announce(dashboard: "demo", text: "Fire drill at 3 — ünïcode", seconds: 20),
            .reloadDashboard("demo"), .reloadPlaylist("wall"), .announce(dashboard: "demo", text: "", seconds: 0),
        ] {
            commands.append(try await withCheckedContinuation { continuation in
                store.commandScreens(action) { continuation.resume(returning: $0) }
            }.get())
        }
        _ = try await store.append("revenue", 2)
        #expect(commands.map(\.seq) == [1, 2, 3, 4])
        #expect(commands[0].action == .announce(dashboard: "demo", text: "Fire drill at 3 — ünïcode", seconds: 20))
        #expect(commands[0].updatedAt == 1000)
        #expect(seen.update { $0.prefix(4) } == commands.map(StoreChange.screens)[...])
        store.close()

        let reopened = try open()
        #expect(reopened.statistics.recoveredRecords == 5, "every command record reads back whole")
        #expect(reopened.lastSeq == 5)
        #expect(reopened.current("revenue")?.seq == 5)
        reopened.close()
    }

    @Test("compaction keeps texts and slides in the snapshot, and a restart after it shows the latest ones")
    func textAndSlidesCompaction() async throws {
        defer { folder.remove() }
        let store = try open()
        _ = try await store.setText("notice", "first")
        _ = try await store.setSlides("news", [.text("old", color: nil)])
        let text = try await store.setText("notice", "Fire drill at 3", color: "#c0392b")
        let slides = try await store.setSlides("news", mixedSlides)
        _ = await store.setWheel("status", .index(1))
        await store.compact()
        #expect(try folder.read("store/journal").count == JournalFile.headerSize)
        store.close()

        let reopened = try open()
        #expect(reopened.text("notice") == text)
        #expect(reopened.slides("news") == slides)
        #expect(reopened.wheel("status")?.target == .index(1))
        #expect(reopened.statistics.recoveredRecords == 0)
        #expect(try await reopened.setText("notice", "after").seq == 6)
        reopened.close()
    }

    @Test(
        "a snapshot written before texts, slides, kept playlist commands, viewer keys, idempotency keys, series or leaderboards existed still loads",
        arguments: [
            (dropped: 20, what: "ends after the wheels"), (dropped: 12, what: "ends after the slides"),
            (dropped: 8, what: "ends after the playlist commands"), (dropped: 4, what: "ends after the viewer keys"),
            (dropped: 0, what: "ends after the idempotency keys"), (dropped: -1, what: "ends after the series"),
        ])
    func olderSnapshots(dropped: Int, what: String) async throws {
        defer { folder.remove() }
        let store = try open()
        _ = try await store.append("a", 5)
        _ = await store.setWheel("status", .index(2))
        var series = BinaryWriter()
        store.snapshot.series("a").encode(into: &series)
        await store.compact()
        store.close()
        let snapshot = try folder.read("store/snapshot")
        // The series section (its count, then "a": length and one byte, and its series) and the boards' count.
        let seriesBytes = 4 + 4 + 1 + series.bytes.count
        let full = Array(snapshot[(JournalFile.headerSize + StoreChange.frameHeaderSize)...])
        #expect(full.suffix(4) == [0, 0, 0, 0], "no leaderboards: a zero count")
        let payload = Array(full.dropLast(4 + seriesBytes))
        #expect(
            payload.suffix(20) == Array(repeating: 0, count: 20),
            "no texts, slides, playlists, viewer keys or idempotency keys: zero counts")
        let kept = dropped < 0 ? Array(full.dropLast(4)) : Array(payload.dropLast(dropped))
        let old = Array(snapshot[..<JournalFile.headerSize]) + StoreChange.frame(kept)
        try folder.write("store/snapshot", old)

        let reopened = try open()
        #expect(reopened.current("a")?.value == 5, "\(what)")
        #expect(reopened.wheel("status")?.target == .index(2))
        #expect(reopened.text("notice") == nil)
        #expect(reopened.snapshot.playlistCommands("wall") == [])
        #expect(reopened.leaderboard("sales") == nil)
        #expect(try await reopened.setSlides("news", mixedSlides).seq == 3)
        reopened.close()
        #expect(try open().slides("news")?.slides == mixedSlides)
    }

    @Test("a playlist's commands survive a restart and a compaction; a show while it rotates starts them afresh")
    func playlistCommandsAreKept() async throws {
        defer { folder.remove() }
        func command(_ store: MetricStore, _ id: String, _ action: StoredPlaylistCommand.Action) async throws
            -> StoredPlaylistCommand
        {
            try await withCheckedContinuation { continuation in
                store.commandPlaylist(id, action: action) { continuation.resume(returning: $0) }
            }.get()
        }
        let store = try open()
        _ = try await command(store, "wall", .show(entry: 1))
        _ = try await command(store, "wall", .hold)
        let heldShow = try await command(store, "wall", .show(entry: 2))
        #expect(store.snapshot.playlistCommands("wall").map(\.seq) == [1, 2, 3], "a show while held is kept")
        let resume = try await command(store, "wall", .resume)
        let show = try await command(store, "wall", .show(entry: 0))
        let hold = try await command(store, "wall", .hold)
        let lobby = try await command(store, "lobby", .hold)
        #expect(store.snapshot.playlistCommands("wall") == [show, hold], "the show after the resume starts afresh")
        #expect(heldShow.seq < resume.seq)
        store.close()

        let reopened = try open()
        #expect(reopened.snapshot.playlistCommands("wall") == [show, hold], "replayed from the journal")
        #expect(reopened.snapshot.playlistCommands("lobby") == [lobby])
        await reopened.compact()
        reopened.close()
        let compacted = try open()
        #expect(compacted.snapshot.playlistCommands("wall") == [show, hold], "kept in the snapshot")
        #expect(compacted.snapshot.playlistCommands("lobby") == [lobby])
        for _ in 0..<40 {
            _ = try await command(compacted, "lobby", .resume)
            _ = try await command(compacted, "lobby", .hold)
        }
        let kept = compacted.snapshot.playlistCommands("lobby")
        #expect(kept.count == StoreModel.playlistCommandLimit && kept.last?.action == .hold, "the newest are kept")
        compacted.close()
    }

    @Test("a journal record of an unknown kind is damage: recovery keeps what comes before it")
    func unknownRecordKind() async throws {
        defer { folder.remove() }
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

    @Test("a crash after the snapshot but before the journal was replaced does not apply records twice")
    func crashDuringCompaction() async throws {
        defer { folder.remove() }
        let store = try open()
        for value in 1...4 { _ = try await store.append("a", Double(value)) }
        store.close()
        let oldJournal = try folder.read("store/journal")
        let compacting = try open()
        await compacting.compact()
        compacting.close()
        try folder.write("store/journal", oldJournal)

        let reopened = try open()
        #expect(reopened.history("a").map(\.value) == [1, 2, 3, 4])
        #expect(reopened.lastSeq == 4)
        #expect(reopened.statistics.recoveredRecords == 0)
        reopened.close()
    }

    @Test("the journal is compacted on its own when it grows past the threshold")
    func automaticCompaction() async throws {
        defer { folder.remove() }
        let store = try open(compactionThreshold: 512)
        for value in 1...50 { _ = try await store.append("a", Double(value)) }
        #expect(store.statistics.compactions > 0)
        store.close()
        let reopened = try open()
        #expect(reopened.current("a")?.value == 50)
        #expect(reopened.lastSeq == 50)
        reopened.close()
    }

    @Test("history keeps only the configured number of values")
    func historyBound() async throws {
        defer { folder.remove() }
        let store = try open(historyLimit: 5)
        for value in 1...12 { _ = try await store.append("a", Double(value)) }
        #expect(store.history("a").map(\.value) == [8, 9, 10, 11, 12])
        store.close()
        let reopened = try open(historyLimit: 5)
        #expect(reopened.history("a").map(\.value) == [8, 9, 10, 11, 12])
        reopened.close()
    }

    @Test("appends arriving during an fsync are committed together by the next one")
    func groupCommit() async throws {
        defer { folder.remove() }
        let store = try open()
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let first = Synchronized(true)
        store.subscribe { _ in
            if first.update({ value in
                defer { value = false }; return value
            }) {
                entered.signal()
                release.wait()
            }
        }
        let completions = DispatchGroup()
        let seqs = Synchronized<[UInt64]>([])
        completions.enter()
        store.append([MetricUpdate(id: "m0", value: 0)]) { result in
            seqs.update { $0 += (try? result.get().map(\.seq)) ?? [] }
            completions.leave()
        }
        entered.wait()
        DispatchQueue.concurrentPerform(iterations: 99) { index in
            completions.enter()
            store.append([MetricUpdate(id: "m\(index + 1)", value: Double(index))]) { result in
                seqs.update { $0 += (try? result.get().map(\.seq)) ?? [] }
                completions.leave()
            }
        }
        release.signal()
        completions.wait()
        #expect(seqs.update { $0 }.sorted() == Array(1...100))
        #expect(store.statistics.commits == 100)
        #expect(store.statistics.syncs == 2)
        store.close()
    }

    @Test("subscribers see every commit in sequence order")
    func subscriberOrder() async throws {
        defer { folder.remove() }
        let store = try open()
        let seen = Synchronized<[UInt64]>([])
        store.subscribe { change in seen.update { $0.append(change.lastSeq) } }
        let group = DispatchGroup()
        DispatchQueue.concurrentPerform(iterations: 50) { index in
            group.enter()
            store.append([MetricUpdate(id: "m", value: Double(index))]) { _ in group.leave() }
        }
        group.wait()
        #expect(seen.update { $0 } == Array(1...50))
        #expect(store.current("m")?.seq == 50)
        store.close()
    }

    @Test("a wheel target survives a restart")
    func wheelTarget() async throws {
        defer { folder.remove() }
        let store = try open()
        let stored = try await store.setWheel("status", .progress(0.4)).get()
        #expect(stored.seq == 1)
        store.close()
        let reopened = try open()
        #expect(reopened.wheel("status") == StoredWheel(id: "status", target: .progress(0.4), seq: 1, updatedAt: 1000))
        #expect(reopened.allWheels().count == 1)
        reopened.close()
    }

    @Test("a second store on the same folder is refused while the first is open")
    func lock() throws {
        defer { folder.remove() }
        let store = try open()
        #expect(throws: StoreError.self) { try open() }
        store.close()
    }

    @Test("a closed store refuses changes")
    func closed() async throws {
        defer { folder.remove() }
        let store = try open()
        store.close()
        let result = await store.append([MetricUpdate(id: "a", value: 1)])
        #expect(throws: StoreError.closed) { try result.get() }
    }

    @Test("a journal from another store is refused rather than mixed in")
    func foreignJournal() async throws {
        defer { folder.remove() }
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

    // MARK: Faults

    /// The hole an attack found: the fresh journal could not be opened after it replaced the old one, appends went
    /// to the unlinked old file, were acknowledged, and were gone after a restart (with their seqs reused).
    @Test("a compaction that cannot open its fresh journal keeps every acknowledged value and sequence number")
    func compactionWithoutDescriptors() async throws {
        defer { folder.remove() }
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
        defer { folder.remove() }
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
        defer { folder.remove() }
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
        defer { folder.remove() }
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
        #expect(await eventually { store.failure == nil })
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
        defer { folder.remove() }
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
        defer { folder.remove() }
        let faults = StoreFaults()
        faults.stall(.sync)
        let store = try open(faults: faults)
        #expect(store.unconfirmedSeconds == nil)
        let done = Synchronized(false)
        store.append([MetricUpdate(id: "a", value: 1)]) { _ in done.update { $0 = true } }
        #expect(await eventually { (store.unconfirmedSeconds ?? 0) > 0.3 })
        #expect(!done.update { $0 })
        faults.release()
        #expect(await eventually { done.update { $0 } })
        #expect(store.unconfirmedSeconds == nil)
        store.close()
    }
}
