import Foundation
import Logging
import RollboardClient
import RollboardNet
import Testing

@testable import RollboardCore
@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardMetrics
@testable import RollboardAccess
@testable import RollboardHub
@testable import RollboardSources
@testable import RollboardAPI
@testable import RollboardServer

/// Two dashboards: `lobby` public, `finance` behind a key; `visitors` is shown on both, `revenue` only on `finance`.
private struct AccessFixture {
    static let producerToken = "access-producer-token-0123"
    static let adminToken = "access-admin-token-0123456"
    let keys: ViewerKeys
    let store: MetricStore
    let folder = TemporaryDirectory()
    let access: ViewerAccess
    let financeKey: String
    let lobbyKey: String
    let everyKey: String

    init() throws {
        let configuration = try RollboardConfiguration.parse(
            serverYAML: "dashboardAccess: key",
            dashboards: [
                (
                    "config/dashboards/lobby.yaml",
                    "id: lobby\naccess: public\ntiles:\n  - {id: visitors, type: counter}\n"
                ),
                (
                    "config/dashboards/finance.yaml",
                    "id: finance\ntiles:\n  - {id: revenue, type: counter}\n  - {id: visitors, type: counter}\n"
                ),
            ])
        store = try MetricStore(directory: folder.path, logger: Logger(label: "test.access"))
        keys = ViewerKeys(changeLog: store, logger: Logger(label: "test.access"))
        financeKey = try keys.createWaiting(name: "finance", dashboards: ["finance"]).secret
        lobbyKey = try keys.createWaiting(name: "lobby", dashboards: ["lobby"]).secret
        everyKey = try keys.createWaiting(name: "every", dashboards: nil).secret
        access = ViewerAccess(
            configuration: configuration, keys: keys,
            readerTokens: [Array(Self.producerToken.utf8), Array(Self.adminToken.utf8)])
    }

    /// The credential of a request to `/d/x` with `key` in the query and `bearer` as its token.
    func credential(key: String? = nil, bearer: String? = nil) -> ViewerAccess.Credential {
        var headers: HTTPHeaders = [:]
        if let bearer { headers.add(name: "Authorization", value: "Bearer \(bearer)") }
        let query = key.map { "?key=" + $0 } ?? ""
        return access.credential(of: HTTPRequest(method: "GET", target: "/d/x" + query, headers: headers))
    }

    func dashboard(_ id: String) -> DashboardConfiguration {
        access.configuration.dashboard(id)!
    }
}

@Suite("ViewerAccess")
struct ViewerAccessTests {
    enum Presented: String, CaseIterable, Sendable {
        case nothing, financeKey, lobbyKey, everyKey, unknownKey, producerToken, adminToken
    }

    private func credential(_ presented: Presented, _ fixture: AccessFixture, asBearer: Bool = false)
        -> ViewerAccess.Credential
    {
        let secret: String? =
            switch presented {
            case .nothing: nil
            case .financeKey: fixture.financeKey
            case .lobbyKey: fixture.lobbyKey
            case .everyKey: fixture.everyKey
            case .unknownKey: "rbv_" + String(repeating: "0", count: 64)
            case .producerToken: AccessFixture.producerToken
            case .adminToken: AccessFixture.adminToken
            }
        return asBearer ? fixture.credential(bearer: secret) : fixture.credential(key: secret)
    }

    @Test(
        "the finance dashboard opens to its key, a key for every dashboard and the tokens only",
        arguments: [
            (Presented.nothing, AccessDecision.keyRequired),
            (.financeKey, .granted(viewerKey: "finance")),
            (.lobbyKey, .keyRefused),
            (.everyKey, .granted(viewerKey: "every")),
            (.unknownKey, .keyRefused),
            (.producerToken, .granted(viewerKey: nil)),
            (.adminToken, .granted(viewerKey: nil)),
        ])
    func privateDashboard(presented: Presented, expected: AccessDecision) throws {
        let fixture = try AccessFixture()
        for asBearer in [false, true] {
            var decision = fixture.access.decide(fixture.dashboard("finance"), credential(presented, fixture, asBearer: asBearer))
            // The key's id is random: compare by name.
            if case .granted(let id?) = decision { decision = .granted(viewerKey: fixture.keys.all.first { $0.id == id }?.name) }
            #expect(decision == expected, "as \(asBearer ? "bearer" : "?key=")")
        }
    }

    @Test("a public dashboard opens to anyone, whatever they present", arguments: Presented.allCases)
    func publicDashboard(presented: Presented) throws {
        let fixture = try AccessFixture()
        #expect(fixture.access.decide(fixture.dashboard("lobby"), credential(presented, fixture)).isGranted)
    }

    @Test(
        "a value may be read when some dashboard showing it may be seen",
        arguments: [
            (Presented.nothing, "visitors", true), (.nothing, "revenue", false),
            (.lobbyKey, "revenue", false), (.financeKey, "revenue", true), (.producerToken, "revenue", true),
            (.unknownKey, "visitors", true), (.unknownKey, "revenue", false),
        ])
    func values(presented: Presented, id: String, readable: Bool) throws {
        let fixture = try AccessFixture()
        #expect(fixture.access.decide(valueOf: id, credential(presented, fixture)).isGranted == readable)
    }

    @Test("without a credential a private value asks for a key (401); with a wrong one it is refused (403)")
    func valueRefusals() throws {
        let fixture = try AccessFixture()
        #expect(fixture.access.decide(valueOf: "revenue", credential(.nothing, fixture)) == .keyRequired)
        #expect(fixture.access.decide(valueOf: "revenue", credential(.lobbyKey, fixture)) == .keyRefused)
    }

    @Test("the list shows the public dashboards, and those a key opens", arguments: [
        (Presented.nothing, ["lobby"]), (.lobbyKey, ["lobby"]), (.financeKey, ["lobby", "finance"]),
        (.adminToken, ["lobby", "finance"]),
    ])
    func visible(presented: Presented, ids: [String]) throws {
        let fixture = try AccessFixture()
        #expect(fixture.access.visibleDashboards(credential(presented, fixture)).map(\.id) == ids)
    }

    @Test("a revoked key opens nothing")
    func revoked() throws {
        let fixture = try AccessFixture()
        let id = try #require(fixture.keys.all.first { $0.name == "finance" }).id
        _ = try fixture.keys.revokeWaiting(id)
        #expect(fixture.access.decide(fixture.dashboard("finance"), credential(.financeKey, fixture)) == .keyRefused)
    }
}
