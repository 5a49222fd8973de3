import RollboardNet
import Testing

@testable import RollboardCore
@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardRedisLog
@testable import RollboardAccess
@testable import RollboardHub
@testable import RollboardAPI
@testable import RollboardServer

@Suite("Configuration store")
struct ConfigurationStoreTests {
    @Test("a snapshot keeps the configuration it was taken under; apply swaps configuration and access in one step")
    func swapsWhole() throws {
        let configurations = try RoutingFixture.configurations()
        let before = configurations.snapshot
        let reloaded = try RollboardConfiguration.parse(
            serverYAML: "dashboardAccess: public",
            dashboards: [("config/dashboards/finance.yaml", "id: finance\ntiles:\n  - {id: revenue, type: counter}\n")])
        try configurations.apply(reloaded)
        let after = configurations.snapshot
        let anonymous = RoutingFixture.request()
        #expect(before.configuration.dashboard("lobby") != nil)
        #expect(!before.access.decide(valueOf: "revenue", before.access.credential(of: anonymous)).isGranted)
        #expect(after.configuration.dashboard("lobby") == nil)
        #expect(after.access.configuration.dashboard("lobby") == nil, "the access rules are the new configuration's")
        #expect(after.access.decide(valueOf: "revenue", after.access.credential(of: anonymous)).isGranted)
    }
}
