public import RollboardMetrics
package import RollboardRedisLog
public import RollboardStore

/// What a ``SourcePoller`` asks its driver to do.
public enum SourceAction: Sendable, Equatable {
    /// Fetch the source now and answer with `fetched`.
    case fetch
    /// Commit these values and boards (only those that changed since the last commit) through the change log, then answer
    /// with `committed` or `commitFailed`.
    case commit(SourceValues)
    /// The source's health turned: log it once, set its gauge, tell its tiles.
    case health(SourceHealth)
    /// Call `timerFired` at this instant (monotonic seconds); replaces any earlier wake.
    case wake(at: Double)
}
