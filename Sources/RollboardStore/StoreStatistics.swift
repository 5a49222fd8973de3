
/// Counters of a store since it opened.
public struct StoreStatistics: Sendable, Equatable {
    /// Calls to `append` and `setWheel` that were committed.
    public var commits = 0
    /// Journal writes, each followed by one fsync; below `commits` when appends were group-committed.
    public var syncs = 0
    /// Bytes appended to the journal.
    public var journalBytesWritten = 0
    /// Times the journal was compacted into a snapshot.
    public var compactions = 0
    /// Compactions that could not be made (the journal kept every record and stayed in use).
    public var failedCompactions = 0
    /// Records replayed from the journal when the store opened.
    public var recoveredRecords = 0
    /// Damaged bytes cut from the journal's tail when the store opened.
    public var discardedBytes = 0
    /// Total seconds spent in write + fsync.
    public var syncSeconds = 0.0

    public init() {}
}
