import RollboardNet

import Dispatch
import Synchronization

/// A write's answer within the configuration's commit timeout: the store's answer, or 503 `commit_timeout` when the
/// store has not answered in time (a sync stuck on the disk), whichever comes first.
enum CommitDeadline {
    /// `respond`, called at most once: with the store's answer or, after `seconds`, with 503 `commit_timeout`.
    static func answer(within seconds: Double, _ respond: @escaping Respond) -> Respond {
        let answered = Atomic<Bool>(false)
        let once: Respond = { response in
            guard !answered.exchange(true, ordering: .acquiringAndReleasing) else { return }
            respond(response)
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
            once(APIError.commitTimeout(seconds: seconds).response)
        }
        return once
    }

    /// ``answer(within:_:)`` with the commit timeout of the configuration the request is served under.
    static func answer(_ context: RequestContext, _ respond: @escaping Respond) -> Respond {
        answer(within: context.configuration.server.limits.commitTimeout, respond)
    }
}
