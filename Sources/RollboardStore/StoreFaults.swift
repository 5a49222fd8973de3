import Dispatch
package import RollboardConfig
package import RollboardCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

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

    /// The environment variable that injects faults into a real server's store, for attack and fault tests only:
    /// `OPERATION:ERRNO[:TIMES]` entries separated by commas, e.g. `openNewJournal:EMFILE:1000`. Operations: `append`,
    /// `sync`, `openNewJournal`, `syncFolder`; errors: `EMFILE`, `ENOSPC`, `EIO`.
    static let environmentVariable = "ROLLBOARD_STORE_FAULTS"

    /// The faults `specification` names (see `environmentVariable`), or `nil` for none; throws a sentence for a
    /// specification it cannot read.
    static func parse(_ specification: String?) throws(StoreError) -> StoreFaults? {
        guard let specification, !specification.isEmpty else { return nil }
        let operations: [String: Operation] = [
            "append": .append, "sync": .sync, "openNewJournal": .openNewJournal, "syncFolder": .syncFolder,
        ]
        let codes: [String: Int32] = ["EMFILE": EMFILE, "ENOSPC": ENOSPC, "EIO": EIO]
        let faults = StoreFaults()
        for entry in specification.split(separator: ",") {
            let parts = entry.split(separator: ":").map(String.init)
            guard (2...3).contains(parts.count), let operation = operations[parts[0]], let code = codes[parts[1]],
                let times = parts.count == 3 ? Int(parts[2]) : 1, times > 0
            else {
                throw StoreError.damaged(
                    environmentVariable, "cannot read \"\(entry)\" (expected OPERATION:ERRNO[:TIMES])")
            }
            faults.inject(operation, errno: code, times: times)
        }
        return faults
    }

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
