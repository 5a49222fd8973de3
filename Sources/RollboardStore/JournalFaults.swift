package import RollboardCore

/// What the journal asks before each of its file operations: the error to fail it with, as a full disk or a
/// descriptor limit would, so that what the store does when the disk says no can be shown without a failing disk.
/// Outside fault tests the store has none (``EnvironmentFaults`` when `ROLLBOARD_STORE_FAULTS` names some).
package protocol JournalFaults: Sendable {
    /// Throws the failure injected for `operation`, if one is due.
    func check(_ operation: JournalOperation) throws(Errno)
}
