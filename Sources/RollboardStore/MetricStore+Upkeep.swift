import Dispatch
import Logging
package import RollboardConfig
package import RollboardCore
import Synchronization

// The journal's upkeep, driven by ``JournalUpkeep``: compaction, the tries after a clean write failure (a full disk),
// and failing the changes a write could not make durable. Everything here runs on the store's queue.
extension MetricStore {
    /// Carries out the upkeep's actions, in order, on `queue`.
    func perform(_ actions: [JournalUpkeep.Action], reason: String? = nil) {
        dispatchPrecondition(condition: .onQueue(queue))
        for action in actions {
            switch action {
            case .compact: compactOnQueue()
            case .tryWriting: tryWriting()
            case .compactionFailing(let retryAtBytes):
                logger.error(
                    "store compaction failed; the journal keeps every record and grows until a retry succeeds",
                    metadata: ["error": "\(reason ?? "")", "retryAtBytes": "\(retryAtBytes)"])
            case .compactionRecovered: logger.notice("store compaction works again")
            case .wake(let time): upkeepTimer.arm(at: time)
            }
        }
    }

    /// How long a store whose journal write failed cleanly (nothing half-written kept) waits before it tries again.
    static let writeRetryInterval = 2.0

    /// Fails `batch` and everything pending with `error`, and refuses further changes: for good, or, `retrying`,
    /// until a later try finds the journal writable again (the disk had no space, and the failed write left nothing
    /// in the journal).
    func fail(_ batch: [Pending], _ error: StoreError, retrying: Bool = false) {
        dispatchPrecondition(condition: .onQueue(queue))
        let firstFailure = state.withLock { $0.failure == nil }
        if firstFailure {
            logger.error(
                !retrying
                    ? "store write failed; refusing further changes until the server is restarted"
                    : "store write failed; refusing changes until the journal can be written again",
                metadata: ["error": "\(error)"])
        }
        let (rest, upkeep) = state.withLock { state in
            state.failure = error
            state.failureIsRetryable = retrying
            state.inFlightSince = nil
            state.flushing = false
            // Every change not yet durable is refused with this batch: their numbers are free again, so the
            // sequence has no gap once changes are taken again.
            state.nextSeq = state.model.lastSeq + 1
            state.tentative = [:]
            state.tentativeBoards = [:]
            state.pendingKeys = []
            defer { state.pending = [] }
            let upkeep = retrying ? state.upkeep.writeFailedCleanly(now: upkeepClock.now()) : state.upkeep.failedForGood()
            return (state.pending, upkeep)
        }
        perform(upkeep)
        for pending in batch + rest { pending.complete(.failure(error)) }
    }

    /// After a clean write failure: tries one empty sync of the journal; if it works, changes are accepted again (the
    /// next one that still finds no space fails the same way), otherwise it tries again later.
    private func tryWriting() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard state.withLock({ $0.failure != nil && $0.failureIsRetryable }) else { return }
        do {
            try file.appendAndSync([])
            perform(
                state.withLock { state in
                    state.failure = nil
                    state.failureIsRetryable = false
                    return state.upkeep.writable()
                })
            logger.notice("store accepts changes again")
        } catch {
            if case .unknownState(let reason) = error {
                perform(
                    state.withLock { state in
                        state.failure = StoreError.writeFailed(reason.description)
                        state.failureIsRetryable = false
                        return state.upkeep.failedForGood()
                    })
                logger.error("store cannot write its journal any more; refusing changes until the server is restarted")
                return
            }
            perform(state.withLock { $0.upkeep.stillFull(now: upkeepClock.now()) })
        }
    }

    /// Compacts the journal into the snapshot. A compaction that could not start leaves the journal as it was (every
    /// record kept) and is tried again only once the journal has grown by another threshold, with one log line per
    /// failing streak; one that replaced the journal but could not make that durable stops the store.
    private func compactOnQueue() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard let model = state.withLock({ $0.failure == nil ? $0.model : nil }) else { return }
        do {
            try file.compact(model, epoch: epochValue)
            perform(
                state.withLock { state in
                    state.statistics.compactions += 1
                    return state.upkeep.compacted()
                })
            logger.debug("store compacted", metadata: ["lastSeq": "\(model.lastSeq)"])
        } catch {
            switch error {
            case .notCompacted(let reason):
                let actions = state.withLock { state in
                    state.statistics.failedCompactions += 1
                    return state.upkeep.compactionFailed(journalSize: file.size)
                }
                perform(actions, reason: "\(reason)")
            case .folderNotSynced(let reason):
                fail([], StoreError.writeFailed("the store's folder could not be synced after a compaction: \(reason)"))
            }
        }
    }

    /// Compacts now: writes the snapshot and starts an empty journal; returns once it is done.
    func compact() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            queue.async { [self] in
                compactOnQueue()
                done.resume()
            }
        }
    }
}
