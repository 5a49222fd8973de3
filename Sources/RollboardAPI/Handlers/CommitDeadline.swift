import Dispatch
package import RollboardAccess
package import RollboardConfig
package import RollboardCore
package import RollboardHub
import RollboardNet
package import RollboardRedisLog
package import RollboardSources
package import RollboardStore
import Synchronization

/// A write's answer within the configuration's commit timeout: the store's answer, or 503 `commit_timeout` when the
/// store has not answered in time (a sync stuck on the disk), whichever comes first, as ``CommitWait`` decides; its
/// one timer runs on the node's monotonic clock (the request context's).
enum CommitDeadline {
    /// Where the deadlines' timers fire.
    private static let queue = DispatchQueue(label: "rollboard.commit-deadline")

    /// `respond`, called at most once: with the store's answer or, after `seconds` on `clock`, with 503
    /// `commit_timeout`.
    static func answer(within seconds: Double, clock: FrameClock, _ respond: @escaping Respond) -> Respond {
        let wait = Mutex(CommitWait(now: clock.now(), timeout: seconds))
        let timer = clock.makeTimer(queue)
        let perform: @Sendable ([CommitWait.Action], HTTPResponse?) -> Void = { actions, answer in
            for action in actions {
                switch action {
                case .deliver: if let answer { respond(answer) }
                case .timeOut:
                    timer.cancel()  // fired for good; cancelling releases the handler and what it holds
                    respond(APIError.commitTimeout(seconds: seconds).response)
                case .wake(let time):
                    if let time { timer.arm(at: time) } else { timer.cancel() }
                }
            }
        }
        timer.activate { perform(wait.withLock { $0.timerFired(now: clock.now()) }, nil) }
        perform(wait.withLock { $0.start() }, nil)
        return { response in perform(wait.withLock { $0.answered() }, response) }
    }

    /// ``answer(within:clock:_:)`` with the commit timeout of the configuration the request is served under, on the
    /// node's clock.
    static func answer(_ context: RequestContext, _ respond: @escaping Respond) -> Respond {
        answer(within: context.configuration.server.limits.commitTimeout, clock: context.clock.monotonic, respond)
    }
}
