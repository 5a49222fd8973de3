
/// A file operation of the journal that a fault (``JournalFaults``) can hit.
package enum JournalOperation: Hashable, Sendable {
    /// Appending records to the journal.
    case append
    /// Syncing the journal after an append.
    case sync
    /// Opening the fresh journal during a compaction.
    case openNewJournal
    /// Syncing the store's folder after a compaction renamed a file into it.
    case syncFolder
}
