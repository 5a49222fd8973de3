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

/// A committed change goes only to the hubs of the dashboards that show its metric; a reload routes again.
@Suite("Dashboard directory routing")
struct DashboardDirectoryRoutingTests {
    private static func dashboard(_ id: String, metrics: [String]) -> (String, String) {
        let tiles = metrics.enumerated().map { offset, metric in
            """
              - id: \(metric)
                type: odometer
                title: \(metric)
                position: { column: \(offset + 1), row: 1 }
                columns: 5
            """
        }
        let yaml = "id: \(id)\ntitle: \(id)\ngrid: { columns: \(metrics.count), rows: 1 }\ntiles:\n"
            + tiles.joined(separator: "\n")
        return ("\(id).yaml", yaml)
    }

    private static let before = [dashboard("lobby", metrics: ["visitors"]), dashboard("shop", metrics: ["orders", "visitors"])]
    private static let after = [dashboard("lobby", metrics: ["visitors", "orders"]), dashboard("hall", metrics: ["revenue"])]

    @Test("each metric routes to the dashboards whose tiles show it, and a metric no dashboard shows to none")
    func routesFollowTheTiles() throws {
        let configuration = try RollboardConfiguration.parse(serverYAML: nil, dashboards: Self.before)
        let routes = MetricRoutes(configuration.dashboards)
        #expect(Set(routes.dashboards(showing: "visitors")) == ["lobby", "shop"])
        #expect(routes.dashboards(showing: "orders") == ["shop"])
        #expect(routes.dashboards(showing: "revenue").isEmpty)
        #expect(Set(routes.dashboards(showingAnyOf: ["orders", "visitors", "revenue"])) == ["lobby", "shop"])
        #expect(routes.dashboards(showingAnyOf: ["orders", "visitors"]).count == 2, "each dashboard once")
    }

    @Test("the directory gives a change only to the hubs that show its metric, and a reload routes again")
    func reloadRoutesAgain() throws {
        let folder = NSTemporaryDirectory() + "rollboard-routing-\(UUID().uuidString)"
        let logger = Logger(label: "test")
        let store = try MetricStore(directory: folder, logger: logger)
        defer {
            store.close()
            try? FileManager.default.removeItem(atPath: folder)
        }
        let directory = try DashboardDirectory(
            configuration: try RollboardConfiguration.parse(serverYAML: nil, dashboards: Self.before), store: store,
            metrics: ServerMetrics(), logger: logger)
        #expect(directory.hubs(showing: "orders").map(\.dashboardID) == ["shop"])
        #expect(Set(directory.hubs(showing: "visitors").map(\.dashboardID)) == ["lobby", "shop"])
        #expect(directory.hubs(showing: "revenue").isEmpty, "a change no dashboard shows touches no hub")

        _ = try directory.reconfigure(try RollboardConfiguration.parse(serverYAML: nil, dashboards: Self.after))
        #expect(directory.hubs(showing: "orders").map(\.dashboardID) == ["lobby"])
        #expect(directory.hubs(showing: "visitors").map(\.dashboardID) == ["lobby"])
        #expect(directory.hubs(showing: "revenue").map(\.dashboardID) == ["hall"])
        #expect(directory.hubs(showingAnyOf: ["orders", "revenue"]).count == 2)
    }

    @Test("a hub tells a screen that connects where the store stands by the directory's watermark")
    func helloSaysTheWatermark() async {
        let routed = ChangeWatermark(3)
        let hub = DashboardHub(
            dashboardID: "ops", helloDashboard: "{}", tiles: [RampTile(tileID: "a", from: 0, to: 0)],
            tilesByMetric: ["m": ["a"]], configuration: .init(defaultFPS: 10, maxFPS: 60, slowClientTimeout: 5),
            storeSeq: 3, routed: routed, clock: ManualClock().clock, metrics: ServerMetrics(), logger: Logger(label: "test"))
        routed.passed(12)
        routed.passed(8)
        let sink = RecordingSink()
        _ = hub.connect(sink, fps: nil)
        await withCheckedContinuation { continuation in hub.screenStatuses { _ in continuation.resume() } }
        #expect(sink.texts.first?.contains(#""changes":{"epoch":"","seq":12}"#) == true, "\(sink.texts)")
    }
}
