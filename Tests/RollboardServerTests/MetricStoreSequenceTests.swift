import Dispatch
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

@Suite("Every change a store commits is numbered in one sequence and told to subscribers in order")
final class MetricStoreSequenceTests: StoreFolderTest {
    let folder = TemporaryDirectory()

    deinit {
        folder.remove()
    }

    @Test("carousel commands are numbered in the one sequence and journaled, and leave no state after a restart")
    func carouselCommandsAreSequenced() async throws {
        let store = try open()
        let seen = HeardChanges(store)
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
        #expect(seen.all.map(\.lastSeq) == [1, 2, 3, 4, 5])
        #expect(seen.all[1] == .carousel(commands[0]))
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
        let store = try open()
        let seen = HeardChanges(store)
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
        #expect(seen.all.prefix(4) == commands.map(StoreChange.screens)[...])
        store.close()

        let reopened = try open()
        #expect(reopened.statistics.recoveredRecords == 5, "every command record reads back whole")
        #expect(reopened.lastSeq == 5)
        #expect(reopened.current("revenue")?.seq == 5)
        reopened.close()
    }

    @Test("appends arriving during an fsync are committed together by the next one")
    func groupCommit() async throws {
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
}
