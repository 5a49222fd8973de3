package import RollboardConfig
package import RollboardCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Failures a real server's store is told to fail with by `ROLLBOARD_STORE_FAULTS`, for the attack and fault suites
/// that run the real binary: each named operation fails with its error the given number of times.
final class EnvironmentFaults: JournalFaults {
    /// The environment variable that injects faults into a real server's store, for attack and fault tests only:
    /// `OPERATION:ERRNO[:TIMES]` entries separated by commas, e.g. `openNewJournal:EMFILE:1000`. Operations: `append`,
    /// `sync`, `openNewJournal`, `syncFolder`; errors: `EMFILE`, `ENOSPC`, `EIO`.
    static let environmentVariable = "ROLLBOARD_STORE_FAULTS"

    /// For each operation, the error it fails with and how many more times.
    private let faults: Mutex<[JournalOperation: (code: Int32, remaining: Int)]>

    private init(_ faults: [JournalOperation: (code: Int32, remaining: Int)]) {
        self.faults = Mutex(faults)
    }

    /// The faults `specification` names (see `environmentVariable`), or `nil` for none; throws a sentence for a
    /// specification it cannot read.
    static func parse(_ specification: String?) throws(StoreError) -> EnvironmentFaults? {
        guard let specification, !specification.isEmpty else { return nil }
        let operations: [String: JournalOperation] = [
            "append": .append, "sync": .sync, "openNewJournal": .openNewJournal, "syncFolder": .syncFolder,
        ]
        let codes: [String: Int32] = ["EMFILE": EMFILE, "ENOSPC": ENOSPC, "EIO": EIO]
        var faults: [JournalOperation: (code: Int32, remaining: Int)] = [:]
        for entry in specification.split(separator: ",") {
            let parts = entry.split(separator: ":").map(String.init)
            guard (2...3).contains(parts.count), let operation = operations[parts[0]], let code = codes[parts[1]],
                let times = parts.count == 3 ? Int(parts[2]) : 1, times > 0
            else {
                throw StoreError.damaged(
                    environmentVariable, "cannot read \"\(entry)\" (expected OPERATION:ERRNO[:TIMES])")
            }
            faults[operation] = (code, times)
        }
        return EnvironmentFaults(faults)
    }

    func check(_ operation: JournalOperation) throws(Errno) {
        let code: Int32? = faults.withLock { faults in
            guard let fault = faults[operation], fault.remaining > 0 else { return nil }
            faults[operation] = (fault.code, fault.remaining - 1)
            return fault.code
        }
        if let code { throw Errno(code) }
    }
}
