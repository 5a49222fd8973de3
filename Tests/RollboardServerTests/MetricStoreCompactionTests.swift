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

@Suite("Compaction keeps every value, history and sequence number, and older snapshots still load")
final class MetricStoreCompactionTests: StoreFolderTest {
    let folder = TemporaryDirectory()

    deinit {
        folder.remove()
    }

    @Test("compaction keeps the last values, history and sequence, and empties the journal")
    func compaction() async throws {
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

    @Test("compaction keeps texts and slides in the snapshot, and a restart after it shows the latest ones")
    func textAndSlidesCompaction() async throws {
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

    @Test("a crash after the snapshot but before the journal was replaced does not apply records twice")
    func crashDuringCompaction() async throws {
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
        let store = try open(compactionThreshold: 512)
        for value in 1...50 { _ = try await store.append("a", Double(value)) }
        #expect(store.statistics.compactions > 0)
        store.close()
        let reopened = try open()
        #expect(reopened.current("a")?.value == 50)
        #expect(reopened.lastSeq == 50)
        reopened.close()
    }
}
