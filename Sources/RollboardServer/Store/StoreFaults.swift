import Dispatch
import Synchronization

/// Failures injected into the store's file operations, so tests can prove what the store does when the disk says no
/// (a full disk, no descriptors left, a sync that never returns) without making the machine's disk fail.
final class StoreFaults: Sendable {
    /// A file operation of the store that a fault can hit.
    enum Operation: Hashable, Sendable {
        /// Appending records to the journal.
        case append
        /// Syncing the journal after an append.
        case sync
        /// Opening the fresh journal during a compaction.
        case openNewJournal
        /// Syncing the store's folder after a compaction renamed a file into it.
        case syncFolder
    }

    private struct Fault {
        var code: Int32
        var remaining: Int
        var hold: DispatchSemaphore?
    }

    private let faults = Mutex<[Operation: Fault]>([:])

    init() {}

    /// Makes the next `times` calls of `operation` fail with `code`.
    func inject(_ operation: Operation, errno code: Int32, times: Int = 1) {
        faults.withLock { $0[operation] = Fault(code: code, remaining: times, hold: nil) }
    }

    /// Makes the next call of `operation` wait, as a disk that does not answer, until `release()` is called; then it
    /// succeeds.
    func stall(_ operation: Operation) {
        faults.withLock { $0[operation] = Fault(code: 0, remaining: 1, hold: DispatchSemaphore(value: 0)) }
    }

    /// Lets every stalled operation go on.
    func release() {
        let holds = faults.withLock { $0.values.compactMap(\.hold) }
        for hold in holds { hold.signal() }
    }

    /// Removes every fault.
    func clear() {
        faults.withLock { $0.removeAll() }
    }

    /// Throws the injected failure for `operation`, if one is due.
    func check(_ operation: Operation) throws(Errno) {
        let due: Fault? = faults.withLock { faults in
            guard var fault = faults[operation], fault.remaining > 0 else { return nil }
            fault.remaining -= 1
            faults[operation] = fault
            return fault
        }
        guard let due else { return }
        if let hold = due.hold {
            hold.wait()
            hold.signal()
        }
        if due.code != 0 { throw Errno(due.code) }
    }
}
