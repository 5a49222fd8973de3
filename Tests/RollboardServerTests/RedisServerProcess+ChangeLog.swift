import RollboardTestSupport

extension RedisServerProcess {
    /// A server for change-log tests: every write it answered survives `kill()` and `start()`, and stream nodes hold
    /// four entries, so trimming shows after a few changes.
    static func forChangeLog() throws -> RedisServerProcess {
        try RedisServerProcess(arguments: ["--stream-node-max-entries", "4"], durable: true)
    }
}
