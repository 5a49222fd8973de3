import Foundation
import Logging
import RollboardTestSupport

@testable import RollboardCore
@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardAPI
@testable import RollboardServer

/// A test of a journal store in a folder of its own (a suite's instance per test, removing the folder in `deinit`):
/// it opens (and reopens) the store there, stamped by a clock that returns 1000, 1001, 1002, … seconds.
protocol StoreFolderTest {
    var folder: TemporaryDirectory { get }
}

extension StoreFolderTest {
    func open(
        historyLimit: Int = ServerSettings.Defaults.historyLength,
        compactionThreshold: Int = ServerSettings.Defaults.journalCompactionBytes, faults: StoreFaults? = nil,
        upkeepClock: FrameClock = .monotonic()
    ) throws -> MetricStore {
        let directory = folder.path + "/store"
        return try MetricStore.reopening(directory) {
            try MetricStore(
                directory: directory, historyLimit: historyLimit, compactionThreshold: compactionThreshold,
                logger: storeLogger, clock: steppingClock(), faults: faults, upkeepClock: upkeepClock)
        }
    }

    /// The journal's bytes after a store appended `values` in order and closed.
    func journalBytes(appending values: [(id: String, value: Double)]) async throws -> [UInt8] {
        let store = try open()
        for (id, value) in values { _ = try await store.append(id, value) }
        store.close()
        return try folder.read("store/journal")
    }
}

let storeLogger = Logger(label: "test.store")

/// A clock that returns 1000, 1001, 1002, … seconds.
private func steppingClock() -> @Sendable () -> Double {
    let counter = Synchronized(0)
    return {
        Double(1000 + counter.update { value in
            defer { value += 1 }
            return value
        })
    }
}

/// Slides of every kind: a text with and without a colour, an image with and without a description.
let mixedSlides: [ProducerSlide] = [
    .text("Welcome, visitors", color: nil),
    .image("https://example.com/a.png", alt: "The new lobby", color: nil),
    .text("Fire drill at 3", color: "#c0392b"),
    .image("data:image/png;base64,iVBORw0KGgo=", alt: nil, color: "#fff"),
]
