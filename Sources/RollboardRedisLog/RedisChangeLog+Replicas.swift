import RollboardRedis
import RollboardStore

// `redis.ackReplicas`: a change is acknowledged only once that many replicas have it (`WAIT`), so a failover that
// promotes one of them loses no acknowledged change. See docs/cluster.md, "Redis fails over".
extension RedisChangeLog {
    /// With `ackReplicas` above 0, waits (`WAIT N MILLISECONDS` on `writer`, after the write it confirms) until that
    /// many replicas confirmed this connection's writes, or `ackTimeout` passed; `then` gets `nil`, or the error the
    /// producer hears (the change was written to the primary and may or may not survive a failover). Without, `then`
    /// is called at once.
    func confirmReplicas(on writer: RedisConnection, then: @escaping @Sendable (StoreError?) -> Void) {
        let (wanted, seconds) = acknowledgement
        guard wanted > 0 else { return then(nil) }
        let milliseconds = max(1, Int((seconds * 1000).rounded()))
        writer.send(["WAIT", "\(wanted)", "\(milliseconds)"], timeout: seconds + Self.commandTimeout) { result in
            switch result {
            case .success(.integer(let count)) where count >= wanted:
                then(nil)
            case .success(.integer(let count)):
                then(.unreplicated("\(count) of \(wanted) replicas confirmed it within \(seconds) s"))
            case .success(let other):
                then(.unreplicated("Redis answered WAIT with \(other)"))
            case .failure(let error):
                then(.unreplicated("the connection failed before the replicas confirmed it (\(error))"))
            }
        }
    }
}
