import Testing

@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardMetrics
@testable import RollboardRedisLog
@testable import RollboardHub
@testable import RollboardSources
@testable import RollboardAPI

/// The source schedule on explicit instants: when it fetches, what it commits, how it backs off and reports health.
@Suite("SourcePoller")
struct SourcePollerTests {
    /// One input to the machine at an instant.
    enum Input: Sendable, CustomStringConvertible {
        case start(Double, current: [String: Double])
        case timer(Double)
        case values([String: Double], at: Double)
        case failure(SourceFailure, at: Double)
        case committed(Double)
        case commitFailed(SourceFailure, at: Double)
        case reload(every: Double, at: Double)
        case stop

        var description: String {
            switch self {
            case .start(let now, let current): "start@\(now) \(current)"
            case .timer(let now): "timer@\(now)"
            case .values(let values, let now): "values@\(now) \(values)"
            case .failure(let failure, let now): "failure@\(now) \(failure)"
            case .committed(let now): "committed@\(now)"
            case .commitFailed(let failure, let now): "commitFailed@\(now) \(failure)"
            case .reload(let every, let now): "reload@\(now) every \(every)"
            case .stop: "stop"
            }
        }
    }

    static func apply(_ input: Input, to poller: inout SourcePoller) -> [SourceAction] {
        switch input {
        case .start(let now, let current): poller.start(now: now, current: SourceValues(metrics: current))
        case .timer(let now): poller.timerFired(now: now)
        case .values(let values, let now): poller.fetched(.success(SourceValues(metrics: values)), now: now)
        case .failure(let failure, let now): poller.fetched(.failure(failure), now: now)
        case .committed(let now): poller.committed(now: now)
        case .commitFailed(let failure, let now): poller.commitFailed(failure, now: now)
        case .reload(let every, let now): poller.reload(every: every, now: now)
        case .stop: poller.stop()
        }
    }

    struct Script: Sendable, CustomStringConvertible {
        let name: String
        let every: Double
        /// Each input with the actions it must return.
        let steps: [(Input, [SourceAction])]
        var description: String { name }
    }

    static let down503 = SourceHealth.down("upstream answered HTTP 503")

    static let scripts: [Script] = [
        Script(
            name: "fetches at start, commits the values, is up, and fetches again one period after the last start",
            every: 30,
            steps: [
                (.start(100, current: [:]), [.fetch]),
                (.values(["a": 1, "b": 2], at: 101), [.commit(["a": 1, "b": 2])]),
                (.committed(101.5), [.health(.up), .wake(at: 130)]),
                (.timer(129.9), []),
                (.timer(130), [.fetch]),
            ]),
        Script(
            name: "commits only the values that changed, and nothing when none did",
            every: 10,
            steps: [
                (.start(0, current: ["a": 1]), [.fetch]),
                (.values(["a": 1, "b": 2], at: 1), [.commit(["b": 2])]),
                (.committed(1), [.health(.up), .wake(at: 10)]),
                (.timer(10), [.fetch]),
                (.values(["a": 1, "b": 2], at: 11), [.wake(at: 20)]),
                (.timer(20), [.fetch]),
                (.values(["a": 5, "b": 2], at: 20.5), [.commit(["a": 5])]),
                (.committed(20.6), [.wake(at: 30)]),
            ]),
        Script(
            name: "a failure keeps the values, reports down once, and retries after 1, 2, 4 s but never later than the period",
            every: 5,
            steps: [
                (.start(0, current: [:]), [.fetch]),
                (.failure(.status(503), at: 1), [.health(down503), .wake(at: 2)]),
                (.timer(2), [.fetch]),
                (.failure(.status(503), at: 2), [.wake(at: 4)]),
                (.timer(4), [.fetch]),
                (.failure(.status(503), at: 4), [.wake(at: 8)]),
                (.timer(8), [.fetch]),
                (.failure(.status(503), at: 8), [.wake(at: 13)]),
                (.timer(13), [.fetch]),
                (.failure(.transfer("no answer within 5 s"), at: 18), [.health(.down("no answer within 5 s")), .wake(at: 23)]),
                (.timer(23), [.fetch]),
                (.values(["a": 3], at: 23.2), [.commit(["a": 3])]),
                (.committed(23.3), [.health(.up), .wake(at: 28)]),
            ]),
        Script(
            name: "a value the tile cannot show is a failure, and is committed again once it can be",
            every: 10,
            steps: [
                (.start(0, current: ["a": 1]), [.fetch]),
                (.values(["a": -4], at: 0.5), [.commit(["a": -4])]),
                (.commitFailed(.refused("below the minimum"), at: 0.6), [.health(.down("refused: below the minimum")), .wake(at: 1.6)]),
                (.timer(1.6), [.fetch]),
                (.values(["a": -4], at: 1.7), [.commit(["a": -4])]),
            ]),
        Script(
            name: "a fetch that takes longer than the period is followed by the next one at once",
            every: 5,
            steps: [
                (.start(0, current: [:]), [.fetch]),
                (.values(["a": 1], at: 7), [.commit(["a": 1])]),
                (.committed(7.5), [.health(.up), .wake(at: 7.5)]),
            ]),
        Script(
            name: "a reload with a shorter period moves the next fetch; the timer before it does nothing",
            every: 60,
            steps: [
                (.start(0, current: [:]), [.fetch]),
                (.values(["a": 1], at: 1), [.commit(["a": 1])]),
                (.committed(1), [.health(.up), .wake(at: 60)]),
                (.reload(every: 10, at: 5), [.wake(at: 10)]),
                (.timer(9), []),
                (.timer(10), [.fetch]),
                (.reload(every: 20, at: 11), []),
                (.values(["a": 1], at: 11), [.wake(at: 30)]),
            ]),
        Script(
            name: "after stop, nothing: a late answer, a timer and a second start are ignored",
            every: 5,
            steps: [
                (.start(0, current: [:]), [.fetch]),
                (.stop, []),
                (.values(["a": 1], at: 1), []),
                (.timer(6), []),
                (.start(7, current: [:]), []),
            ]),
        Script(
            name: "inputs out of turn do nothing: a timer while fetching, an answer while waiting",
            every: 5,
            steps: [
                (.start(0, current: [:]), [.fetch]),
                (.timer(3), []),
                (.committed(3), []),
                (.values(["a": 1], at: 4), [.commit(["a": 1])]),
                (.values(["a": 2], at: 4), []),
                (.committed(4), [.health(.up), .wake(at: 5)]),
                (.failure(.invalidJSON, at: 4.5), []),
            ]),
    ]

    @Test("runs each script step by step, returning exactly the actions it expects", arguments: scripts)
    func script(_ script: Script) {
        var poller = SourcePoller(every: script.every)
        for (index, (input, expected)) in script.steps.enumerated() {
            let actions = Self.apply(input, to: &poller)
            #expect(actions == expected, "step \(index): \(input)")
        }
    }

    @Test("the next fetch and the health are readable for the admin API")
    func readable() {
        var poller = SourcePoller(every: 30)
        #expect(poller.health == .unknown)
        _ = poller.start(now: 0, current: [:])
        #expect(poller.nextFetch == nil)
        _ = poller.fetched(.failure(.emptyResult), now: 1)
        #expect(poller.health == .down("query found no series"))
        #expect(poller.nextFetch == 2)
        #expect(poller.failures == 1)
    }
}
