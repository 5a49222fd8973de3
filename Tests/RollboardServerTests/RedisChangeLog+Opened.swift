import Logging
import RollboardTestSupport

@testable import RollboardCore
@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardRedisLog
@testable import RollboardHub

extension RedisChangeLog {
    /// A log on `settings` that was started and has opened (Redis answered, the latest values are loaded), as a node
    /// that found Redis up at start has it moments later; throws if it did not open within 10 s.
    static func opened(
        settings: RedisSettings, logger: Logger,
        idempotencyBudget: Int = ServerSettings.Defaults.idempotencyMemoryBytes,
        clock: (@Sendable () -> Double)? = nil
    ) throws -> RedisChangeLog {
        let log = try RedisChangeLog(
            settings: settings, idempotencyBudget: idempotencyBudget, logger: logger, clock: clock)
        // The feed turns live after the link stopped refusing changes: its observers are the event to check on.
        let feed = Changes()
        log.observeFeed { _ in feed.changed() }
        log.start()
        guard feed.waitBlocking(within: 10, until: { log.failure == nil && log.isFeedLive }) else {
            log.close()
            throw NotOpened(description: "the Redis change log did not open: \(log.failure.map { "\($0)" } ?? "feed not live")")
        }
        return log
    }
}

/// A Redis change log that did not open in time.
struct NotOpened: Error, CustomStringConvertible {
    let description: String
}
