import Dispatch
import RollboardTestSupport
import Synchronization

@testable import RollboardCore
@testable import RollboardStore

/// Failures injected into the store's file operations, so tests can prove what the store does when the disk says no
/// (a full disk, no descriptors left, a sync that never returns) without making the machine's disk fail.
final class StoreFaults: JournalFaults {
    private struct Fault {
        var code: Int32
        var remaining: Int
        var hold: DispatchSemaphore?
    }

    private let faults = Mutex<[JournalOperation: Fault]>([:])
    private let stalledNow = Mutex(0)
    /// Told when a stalled operation starts to wait and when it goes on.
    let changes = Changes()

    /// How many operations are waiting in a stall now.
    var stalled: Int { stalledNow.withLock { $0 } }

    /// Makes the next `times` calls of `operation` fail with `code`.
    func inject(_ operation: JournalOperation, errno code: Int32, times: Int = 1) {
        faults.withLock { $0[operation] = Fault(code: code, remaining: times, hold: nil) }
    }

    /// Makes the next call of `operation` wait, as a disk that does not answer, until `release()` is called; then it
    /// succeeds.
    func stall(_ operation: JournalOperation) {
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

    func check(_ operation: JournalOperation) throws(Errno) {
        let due: Fault? = faults.withLock { faults in
            guard var fault = faults[operation], fault.remaining > 0 else { return nil }
            fault.remaining -= 1
            faults[operation] = fault
            return fault
        }
        guard let due else { return }
        if let hold = due.hold {
            stalledNow.withLock { $0 += 1 }
            changes.changed()
            hold.wait()
            hold.signal()
            stalledNow.withLock { $0 -= 1 }
            changes.changed()
        }
        if due.code != 0 { throw Errno(due.code) }
    }
}
