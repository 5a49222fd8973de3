import RollboardStore

// Seeding a Redis that lost this cluster's data from what one node holds (see ``RedisRecoveryMachine``).
extension RedisKeys {
    /// KEYS: epoch, sequence, stream, latest, recovery lease. ARGV: the epoch the node had, its last sequence number,
    /// the new epoch, the node's lease token, then per latest field: field, `SEQ:RECORD`. Writes nothing and answers
    /// `{0, epoch}` when Redis holds an epoch other than the node's (or the node's with its sequence caught up), and
    /// `{-1, ""}` when the lease is no longer the node's. Otherwise empties the stream and the latest values, writes
    /// the node's, sets the sequence to the node's last number, the new epoch last, gives the lease back and answers
    /// `{1, new epoch}`. Idempotency keys still in Redis are kept.
    static let seedScript = """
        local stored = redis.call('GET', KEYS[1])
        if stored and not (stored == ARGV[1] and tonumber(redis.call('GET', KEYS[2]) or '0') < tonumber(ARGV[2])) then
          return {0, stored}
        end
        if redis.call('GET', KEYS[5]) ~= ARGV[4] then return {-1, ''} end
        redis.call('DEL', KEYS[2], KEYS[3], KEYS[4])
        for i = 5, #ARGV, 2 do redis.call('HSET', KEYS[4], ARGV[i], ARGV[i + 1]) end
        redis.call('HSET', KEYS[4], '_seq', ARGV[2])
        redis.call('SET', KEYS[2], ARGV[2])
        redis.call('SET', KEYS[1], ARGV[3])
        redis.call('DEL', KEYS[5])
        return {1, ARGV[3]}
        """

    /// The `EVAL` of ``seedScript`` for a node of `epoch` holding `model`, under `newEpoch` and the lease `token`.
    func seedCommand(epoch: String, newEpoch: String, token: String, model: StoreModel) -> [[UInt8]] {
        var arguments: [[UInt8]] = [
            Array("EVAL".utf8), Array(Self.seedScript.utf8), Array("5".utf8), Array(self.epoch.utf8),
            Array(sequence.utf8), Array(changes.utf8), Array(latest.utf8), Array(recoveryLease.utf8),
            Array(epoch.utf8), Array("\(model.lastSeq)".utf8), Array(newEpoch.utf8), Array(token.utf8),
        ]
        for (seq, record) in model.restingRecords {
            for entry in Self.latestEntries(of: record) {
                arguments.append(Array(entry.field.utf8))
                arguments.append(Array("\(seq + entry.offset):".utf8) + entry.record.payload)
            }
        }
        return arguments
    }
}
