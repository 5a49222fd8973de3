import Foundation
import Logging
import RollboardClient
import RollboardNet
import Synchronization
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
                + #"{"t":"2027-01-15T08:00:00.000Z","value":12.5,"seq":3}],"next":null}"#)
        let hourly = await fixture.get("/api/v1/metrics/orders/series?" + Self.window + "&step=1h")
        #expect(
            hourly.text.hasSuffix(
                #""step":"1h","truncated":false,"buckets":[{"t":"2027-01-15T08:00:00.000Z","first":10,"#
                    + #""last":12.5,"min":10,"max":15,"count":3,"increments":2.5}],"next":null}"#), "\(hourly.text)")
        let unset = await fixture.get("/api/v1/metrics/visitors/series?" + Self.window)
        #expect(unset.text.hasSuffix(#""points":[],"next":null}"#))
    }

    @Test("a bad or unknown parameter is 400 naming it, an unknown metric 404")
    func refusals() async throws {
        let fixture = try Fixture()
        let step = await fixture.get("/api/v1/metrics/orders/series?step=fortnightly")
        #expect(step.status == .badRequest)
        #expect(step.detail?.hasPrefix("step: must be raw or") == true)
        let trap = await fixture.get("/api/v1/metrics/orders/series?from=-1e300")
        #expect(trap.status == .badRequest)
        #expect(trap.detail?.hasPrefix("from: must be a UTC time") == true)
        let unknown = await fixture.get("/api/v1/metrics/orders/series?since=1")
        #expect(unknown.status == .badRequest)
        #expect(unknown.detail == "since: unknown field (allowed: from, to, step, limit, after)")
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

/// Paging and concurrency of series reads: a long series read page by page answers every point once, and a read
/// that is slow to take its snapshot holds up neither a write nor anything else on the connection's loop.
@Suite("Producer API: series pages")
struct SeriesPagesAPITests {
    typealias Fixture = ProducerIncrementAPITests.Fixture

    @Test("a long series read page by page through next answers every point exactly once, in order")
    func pagesThroughNext() async throws {
        let fixture = try Fixture()
        for batch in 0..<5 {
            let updates = (0..<500).map { #"{"id":"orders","value":\#(batch * 500 + $0)}"# }
            let answer = await fixture.post("/api/v1/metrics", #"{"updates":[\#(updates.joined(separator: ","))]}"#)
            #expect(answer.status == .accepted)
        }
        var target: String? = "/api/v1/metrics/orders/series?" + SeriesAPITests.window + "&limit=700"
        var seen: [Double] = []
        var pages = 0
        while let next = target {
            let page = await fixture.get(next)
            #expect(page.status == .ok)
            let body = try #require(JSONSerialization.jsonObject(with: Data(page.body)) as? [String: Any])
            let points = try #require(body["points"] as? [[String: Any]])
            #expect(points.count <= 700)
            seen += points.compactMap { $0["value"] as? Double }
            target = body["next"] as? String
            #expect((body["truncated"] as? Bool) == (target != nil))
            pages += 1
            if pages > 10 { break }
        }
        #expect(pages == 4)
        #expect(seen == (0..<2_500).map(Double.init))
        let minutes = await fixture.get("/api/v1/metrics/orders/series?" + SeriesAPITests.window + "&step=1m&limit=1")
        #expect(minutes.text.hasSuffix(#""count":2500,"increments":0}],"next":null}"#), "\(minutes.text)")
    }

    /// Hands out the store's snapshot only once `open` is called, while `gating`: a read that is slow to start.
    final class GatedLog: ChangeLog {
        let base: MetricStore
        let gating = Mutex(false)
        let opened = DispatchSemaphore(value: 0)

        init(_ base: MetricStore) { self.base = base }

        func open() { opened.signal() }

        var epoch: String { base.epoch }
        var snapshot: StoreSnapshot {
            if gating.withLock({ $0 }) {
                opened.wait()
                opened.signal()
            }
            return base.snapshot
        }
        var failure: StoreError? { base.failure }
        var isFeedLive: Bool { base.isFeedLive }
        var unconfirmedSeconds: Double? { base.unconfirmedSeconds }
        func commit(_ change: StoreChange, completion: @escaping @Sendable (Result<StoreChange, StoreError>) -> Void) {
            base.commit(change, completion: completion)
        }
        func commitMetrics(
            _ request: MetricCommitRequest,
            completion: @escaping @Sendable (Result<MetricCommitOutcome, MetricCommitError>) -> Void
        ) { base.commitMetrics(request, completion: completion) }
        func commitLeaderboard(
            _ request: LeaderboardCommitRequest,
            completion: @escaping @Sendable (Result<LeaderboardCommitOutcome, LeaderboardCommitError>) -> Void
        ) { base.commitLeaderboard(request, completion: completion) }
        func subscribe(_ handler: @escaping @Sendable (StoreChange) -> Void) { base.subscribe(handler) }
        func observeFeed(_ observer: @escaping @Sendable (Bool) -> Void) { base.observeFeed(observer) }
        func observeCommits(_ observer: @escaping @Sendable (Double) -> Void) { base.observeCommits(observer) }
        func close(completion: @escaping @Sendable () -> Void) { base.close(completion: completion) }
    }

    @Test("a series read still under way holds up neither a write nor a probe that share its connection loop")
    func readsDoNotBlockTheLoop() throws {
        let fixture = try Fixture()
        let log = GatedLog(fixture.store)
        let configuration = try RollboardConfiguration.parse(
            serverYAML: nil,
            dashboards: [("config/dashboards/demo.yaml", "id: demo\ntiles:\n  - {id: orders, type: counter}\n")])
        let api = RollboardAPI(
            configurations: ConfigurationStore(
                configuration, readerTokens: [ProducerIncrementAPITests.token], logger: Logger(label: "test")),
            tokens: [ProducerToken(token: ProducerIncrementAPITests.token)], store: log, logger: Logger(label: "test"))
        let headers: HTTPHeaders = [
            "Authorization": "Bearer \(ProducerIncrementAPITests.token)", "Content-Type": "application/json",
        ]
        let loop = DispatchQueue(label: "test.loop")
        let read = Mutex<HTTPResponse?>(nil)
        let readDone = DispatchSemaphore(value: 0)
        let written = DispatchSemaphore(value: 0)
        log.gating.withLock { $0 = true }
        loop.async {
            let target = "/api/v1/metrics/orders/series?" + SeriesAPITests.window
            api.handle(HTTPRequest(method: "GET", target: target, headers: headers)) {
                response in
                read.withLock { $0 = response }
                readDone.signal()
            }
        }
        loop.async {
            let body = Array(#"{"value": 7}"#.utf8)
            api.handle(HTTPRequest(method: "POST", target: "/api/v1/metrics/orders", headers: headers, body: body)) {
                if $0.status == .accepted { written.signal() }
            }
        }
        // A deadline for the failure only: unfixed, the read holds the loop and the write never starts.
        let writeAnswered = written.wait(timeout: .now() + 20) == .success
        #expect(writeAnswered, "the write was answered while the read waited for its snapshot")
        #expect(read.withLock { $0 } == nil, "the read was still under way")
        log.open()
        #expect(readDone.wait(timeout: .now() + 20) == .success)
        #expect(read.withLock { $0?.text.contains(#""value":7"#) } == true)
    }
}
