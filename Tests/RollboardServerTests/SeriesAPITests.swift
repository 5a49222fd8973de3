import Foundation
import RollboardNet
import Testing

@testable import RollboardServer

/// `GET /api/v1/metrics/{id}/series` through the API: raw points and rollups of what was posted, a bad parameter
/// refused by name, and a closed dashboard's value read only with a key or token.
@Suite("Producer API: series")
struct SeriesAPITests {
    typealias Fixture = ProducerIncrementAPITests.Fixture
    /// The fixture's store stamps every commit 2027-01-15T08:00:00Z.
    static let window = "from=2027-01-15T07:00:00Z&to=2027-01-15T09:00:00Z"

    @Test("the series answers every change, raw or rolled up, and an unset metric's is empty")
    func answers() async throws {
        let fixture = try Fixture()
        _ = await fixture.post("/api/v1/metrics/orders", #"{"value": 10}"#)
        _ = await fixture.post("/api/v1/metrics/orders", #"{"increment": 5}"#)
        _ = await fixture.post("/api/v1/metrics/orders", #"{"increment": -2.5}"#)
        let raw = await fixture.get("/api/v1/metrics/orders/series?" + Self.window)
        #expect(raw.status == .ok)
        #expect(
            raw.text == #"{"id":"orders","from":"2027-01-15T07:00:00.000Z","to":"2027-01-15T09:00:00.000Z","#
                + #""step":"raw","truncated":false,"points":[{"t":"2027-01-15T08:00:00.000Z","value":10,"seq":1},"#
                + #"{"t":"2027-01-15T08:00:00.000Z","value":15,"seq":2},"#
                + #"{"t":"2027-01-15T08:00:00.000Z","value":12.5,"seq":3}]}"#)
        let hourly = await fixture.get("/api/v1/metrics/orders/series?" + Self.window + "&step=1h")
        #expect(
            hourly.text.hasSuffix(
                #""step":"1h","buckets":[{"t":"2027-01-15T08:00:00.000Z","first":10,"last":12.5,"min":10,"max":15,"#
                    + #""count":3,"increments":2.5}]}"#), "\(hourly.text)")
        let unset = await fixture.get("/api/v1/metrics/visitors/series?" + Self.window)
        #expect(unset.text.hasSuffix(#""points":[]}"#))
    }

    @Test("a bad parameter is 422 naming it, an unknown one 400, an unknown metric 404")
    func refusals() async throws {
        let fixture = try Fixture()
        let step = await fixture.get("/api/v1/metrics/orders/series?step=fortnightly")
        #expect(step.status == .unprocessableContent)
        #expect(step.detail?.hasPrefix("step: must be raw or") == true)
        let unknown = await fixture.get("/api/v1/metrics/orders/series?since=1")
        #expect(unknown.status == .badRequest)
        #expect(unknown.detail == "since: unknown field (allowed: from, to, step)")
        let missing = await fixture.get("/api/v1/metrics/profit/series")
        #expect(missing.status == .notFound)
    }

    @Test("a closed dashboard's series needs a viewer key or token, like its value")
    func closed() async throws {
        let fixture = try Fixture(serverYAML: "dashboardAccess: key")
        _ = await fixture.post("/api/v1/metrics/orders", #"{"value": 10}"#)
        let anonymous = await fixture.get("/api/v1/metrics/orders/series?" + Self.window)
        #expect(anonymous.status == .unauthorized)
        let withToken = await fixture.get(
            "/api/v1/metrics/orders/series?" + Self.window, bearer: ProducerIncrementAPITests.token)
        #expect(withToken.status == .ok)
        #expect(withToken.text.contains(#""value":10"#))
    }
}
