package import RollboardConfig
package import RollboardRedis
package import RollboardStore
import Synchronization

// Other services' commands on the log's one Redis link (the source leases): no second connection, no second
// reconnection.
extension RedisChangeLog {
    /// Sends `command` on the link's writer connection; `completion` gets Redis's reply, or an error at once while the
    /// link is down (it reconnects by itself, ``RedisLinkMachine``) or closed, or when Redis has not answered within
    /// `timeout` seconds. Replies arrive on the connection's queue.
    package func send(
        _ command: [String], timeout: Double = RedisChangeLog.commandTimeout,
        completion: @escaping @Sendable (Result<RedisReply, RedisError>) -> Void
    ) {
        let writer = state.withLock { state in state.link.phase == .up ? state.writer : nil }
        guard let writer else { return completion(.failure(.closed("the Redis link is down"))) }
        writer.send(command, timeout: timeout, completion: completion)
    }
}
