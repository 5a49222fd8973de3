import Dispatch
import Foundation
import Logging
import Testing

@testable import RollboardCore
@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardMetrics
@testable import RollboardHub

/// A committed assignment reaches the screens of its name, whichever dashboard they show, and no other screen.
@Suite("Screen assignment routing")
struct ScreenAssignRoutingTests {
    private static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    @Test(
        "an assignment goes to every screen of its name and to no other",
        arguments: [
            (name: "Lobby TV", reached: ["Lobby TV on demo", "Lobby TV on story"]),
            (name: "Hall", reached: ["Hall on demo"]),
            (name: "Nobody", reached: []),
        ])
    func routesByName(name: String, reached: [String]) async throws {
        let configuration = try RollboardConfiguration.load(directory: Self.repositoryRoot + "/config")
        let folder = NSTemporaryDirectory() + "rollboard-assign-\(UUID().uuidString)"
        let store = try MetricStore(directory: folder, logger: Logger(label: "test"))
        defer { store.close(); try? FileManager.default.removeItem(atPath: folder) }
        let directory = try DashboardDirectory(
            configuration: configuration, store: store, metrics: ServerMetrics(), logger: Logger(label: "test"))
        var sinks: [String: RecordingSink] = [:]
        for (screen, dashboard) in [("Lobby TV", "demo"), ("Lobby TV", "story"), ("Hall", "demo"), (nil, "demo")] {
            let hub = try #require(directory.hub(dashboard))
            let sink = RecordingSink()
            let session = hub.connect(sink, fps: nil)
            _ = directory.screens.add(
                dashboard: dashboard, name: screen, address: nil, userAgent: nil, connectedAt: 0, hub: hub,
                sessionID: session)
            #expect(await sink.wait { !sink.messages.isEmpty })
            sinks["\(screen ?? "unnamed") on \(dashboard)"] = sink
        }
        let page = "/d/story?name=\(name)&kiosk"
        let done = DispatchSemaphore(value: 0)
        store.commandScreens(.assign(screen: name, page: page)) { _ in done.signal() }
        done.wait()
        // A reload of both dashboards committed after it arrives after it: by then the assignment would have.
        store.commandScreens(.reloadDashboard("demo")) { _ in }
        store.commandScreens(.reloadDashboard("story")) { _ in }
        let expected = #"{"type":"assign","url":"\#(page)"}"#
        for (label, sink) in sinks {
            #expect(await sink.wait { sink.messages.contains { $0.contains(#""type":"reload""#) } })
            #expect(sink.messages.contains(expected) == reached.contains(label), "\(label)")
        }
    }
}
