package import RollboardConfig
package import RollboardSources
package import RollboardStore

/// One write waiting for the change log's answer within the commit timeout, without clocks: the store answers, or
/// the deadline passes first, and whichever comes first is the only one the producer hears. Each input returns the
/// ``Action``s its driver (``CommitDeadline``) carries out; `.wake(at:)` arms its one timer.
struct CommitWait: Equatable {
    enum Action: Equatable {
        /// Pass the store's answer on.
        case deliver
        /// Answer 503 `commit_timeout`: the store did not answer within the timeout.
        case timeOut
        /// Call ``timerFired(now:)`` at this time; `nil`: never.
        case wake(at: Double?)
    }

    enum Phase: Equatable {
        case waiting
        case answered
        case timedOut
    }

    /// When the producer is answered 503 if the store has not answered (monotonic seconds).
    let deadline: Double
    private(set) var phase = Phase.waiting

    init(now: Double, timeout: Double) {
        deadline = now + timeout
    }

    /// The wait begins: wake at the deadline.
    func start() -> [Action] {
        [.wake(at: deadline)]
    }

    /// The store answered: passed on if the deadline has not answered first (a late answer is dropped).
    mutating func answered() -> [Action] {
        guard phase == .waiting else { return [] }
        phase = .answered
        return [.deliver, .wake(at: nil)]
    }

    /// The timer fired: 503 if the deadline has come and the store has not answered.
    mutating func timerFired(now: Double) -> [Action] {
        guard phase == .waiting else { return [] }
        guard now >= deadline else { return [.wake(at: deadline)] }
        phase = .timedOut
        return [.timeOut]
    }
}
