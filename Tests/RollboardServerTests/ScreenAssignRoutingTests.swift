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
        "an assignment, a reload or an identify of a name goes to every screen of that name and to no other",
        arguments: [
            (name: "Lobby TV", reached: ["Lobby TV on demo", "Lobby TV on story"]),
            (name: "Hall", reached: ["Hall on demo"]),
            (name: "Nobody", reached: []),
        ], ["assign", "reload", "identify"])
    func routesByName(screens: (name: String, reached: [String]), command: String) async throws {
        let (name, reached) = screens
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
        let (action, expected): (StoredScreenCommand.Action, String) =
            switch command {
            case "assign": (.assign(screen: name, page: page), #"{"type":"assign","url":"\#(page)"}"#)
            case "reload": (.reloadScreen(name), #"{"type":"reload"}"#)
            default: (.identify(screen: name, seconds: 5), #"{"type":"identify","name":"\#(name)","seconds":"#)
            }
        let done = DispatchSemaphore(value: 0)
        store.commandScreens(action) { _ in done.signal() }
        done.wait()
        // An announcement on everything committed after it arrives after it: by then the command would have.
        store.commandScreens(.announceEverywhere(text: "", seconds: 0)) { _ in }
        for (label, sink) in sinks {
            #expect(await sink.wait { sink.messages.contains { $0.contains(#""type":"announce""#) } })
            #expect(sink.messages.contains { $0.hasPrefix(expected) } == reached.contains(label), "\(label)")
        }
    }
}
