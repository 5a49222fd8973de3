import Dispatch
package import RollboardConfig
package import RollboardStore
import Synchronization

/// What a ``CommitLane`` remembers: the newest record of each id.
protocol LaneRecord: Sendable {
    var id: String { get }
    var seq: UInt64 { get }
}

extension StoredMetric: LaneRecord {}
extension StoredLeaderboard: LaneRecord {}

/// A node's guarded commits of one kind on Redis (metric batches with increments, leaderboard edits) take turns:
/// one is in flight at a time and the others wait, in order. So the only writers racing for a latest value are the
/// other nodes (a few), not every request this node has open, and a commit's retries are bounded by the cluster's
/// size rather than by this node's load. The lane also remembers the newest record of each id it committed or was
/// told about, which the node's model (fed by the stream) may not have read yet.
final class CommitLane<Record: LaneRecord>: Sendable {
    private struct State {
        var busy = false
        var waiting: [@Sendable () -> Void] = []
        var known: [String: Record] = [:]
    }

    private let state = Mutex(State())

    /// Runs `commit` once the commits before it are answered; `commit` calls its argument once its own is answered.
    func inTurn(_ commit: @escaping @Sendable (_ answered: @escaping @Sendable () -> Void) -> Void) {
        let run: @Sendable () -> Void = { [self] in
            commit { [self] in
                let next: (@Sendable () -> Void)? = state.withLock { state in
                    if state.waiting.isEmpty {
                        state.busy = false
                        return nil
                    }
                    return state.waiting.removeFirst()
                }
                // Off this stack: while Redis is out of reach every waiting commit fails at once, one after another.
                if let next { DispatchQueue.global().async(execute: next) }
            }
        }
        let now: Bool = state.withLock { state in
            if state.busy {
                state.waiting.append(run)
                return false
            }
            state.busy = true
            return true
        }
        if now { run() }
    }

    /// Records `record` as the newest of its id unless a newer one is known.
    func learn(_ record: Record) {
        state.withLock { state in
            if (state.known[record.id]?.seq ?? 0) < record.seq { state.known[record.id] = record }
        }
    }

    /// The newest record of `id` known to the lane or in `model`'s.
    func newest(_ id: String, or modelRecord: Record?) -> Record? {
        let known = state.withLock { $0.known[id] }
        return [known, modelRecord].compactMap { $0 }.max { $0.seq < $1.seq }
    }
}
