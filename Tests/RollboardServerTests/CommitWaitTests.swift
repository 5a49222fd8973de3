import Synchronization
import Testing

import RollboardClient
import RollboardNet
import RollboardTestSupport

@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardHub
@testable import RollboardSources
@testable import RollboardAPI

/// A write's wait for the store within the commit timeout: the machine on explicit times, and its driver on a manual
/// clock. Whichever answers first is the only answer.
@Suite("Commit wait")
struct CommitWaitTests {
    @Test(
        "the producer hears exactly one answer: the store's before the deadline, the timeout's from it on",
        arguments: [
            // (store answers at, timer fires at, expected first answer)
            (1.0 as Double?, [5.0], CommitWait.Action.deliver),
            (nil as Double?, [5.0], .timeOut),
            (7.0, [5.0], .timeOut),
            (4.9, [3.0, 5.0], .deliver),
            (nil, [3.0, 4.999, 5.0], .timeOut),
        ])
    func oneAnswer(storeAt: Double?, timerAt: [Double], first: CommitWait.Action) {
        var wait = CommitWait(now: 2, timeout: 3)
        #expect(wait.start() == [.wake(at: 5)])
        var events: [(Double, Bool)] = timerAt.map { ($0, false) }
        if let storeAt { events.append((storeAt, true)) }
        var answers: [CommitWait.Action] = []
        for (time, isStore) in events.sorted(by: { $0.0 < $1.0 }) {
            let actions = isStore ? wait.answered() : wait.timerFired(now: time)
            answers += actions.filter { $0 == .deliver || $0 == .timeOut }
            if !isStore, time < 5 { #expect(actions == [.wake(at: 5)], "early: armed again for the deadline") }
        }
        #expect(answers == [first], "exactly one answer")
    }

    /// The driver's `respond`, answering within `seconds` on `clock`, and the status codes it has answered with.
    private func driver(within seconds: Double, on clock: ManualClock) -> (Respond, Synchronized<[Int]>) {
        let heard = Synchronized<[Int]>([])
        let respond = CommitDeadline.answer(within: seconds, clock: clock.clock) { response in
            heard.update { $0.append(response.status.code) }
        }
        return (respond, heard)
    }

    @Test("the driver answers 503 commit_timeout once when its clock reaches the deadline, and drops the store's late answer")
    func driverTimesOutOnce() async {
        let clock = ManualClock(at: 10)
        let (respond, heard) = driver(within: 0.5, on: clock)
        #expect(clock.armed == [10.5])
        clock.advance(to: 10.49)
        #expect(heard.update { $0 }.isEmpty, "nothing before the deadline")
        clock.advance(to: 10.5)
        #expect(await clock.wait { heard.update { $0 } == [503] })
        respond(HTTPResponse(status: .accepted))
        clock.advance(to: 20)
        #expect(heard.update { $0 } == [503], "the store's late answer is dropped")
    }

    @Test("the driver passes the store's answer on and disarms its timer")
    func driverDelivers() async {
        let clock = ManualClock(at: 0)
        let (respond, heard) = driver(within: 3, on: clock)
        respond(HTTPResponse(status: .accepted))
        #expect(heard.update { $0 } == [202] && clock.armed == [nil])
        clock.advance(to: 5)
        respond(HTTPResponse(status: .accepted))
        #expect(clock.now == 5 && heard.update { $0 } == [202], "answered once")
    }
}
