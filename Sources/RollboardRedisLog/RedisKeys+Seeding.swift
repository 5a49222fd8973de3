import RollboardStore

// Seeding a Redis that lost this cluster's data from what one node holds (see ``RedisRecoveryMachine``).
extension RedisKeys {
    /// The hash of the positions nodes report while recovering: per lease token, `LASTSEQ UNTIL` (Redis's clock, in
    /// milliseconds, after which the report no longer counts).
    var recoveryPositions: String { recoveryLease + ":positions" }

    /// `EPOCH SEQ`: the last seed's epoch and the change it was made at, so a node standing there keeps its state.
    var recoverySeed: String { recoveryLease + ":seed" }

    /// KEYS: the positions hash. ARGV: the node's token, its last sequence number, milliseconds the report counts.
    static let reportScript = """
        local t = redis.call('TIME')
        local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
        redis.call('HSET', KEYS[1], ARGV[1], ARGV[2] .. ' ' .. tostring(now + tonumber(ARGV[3])))
        redis.call('PEXPIRE', KEYS[1], 60000)
        return 1
        """

    /// KEYS: epoch, sequence, stream, latest, recovery lease, positions, seed, the remembered keys' hash, their order,
    /// their byte sum. ARGV: the epoch the node had, its last sequence number, the new epoch, the node's lease token,
    /// the count N of remembered keys, then N times key, `SEQ:ANSWER`, commit time, cost (oldest first), then per
    /// latest field: field, `SEQ:RECORD`. Writes
    /// nothing and answers `{0, epoch}` when Redis holds an epoch other than the node's (or the node's with its
    /// sequence caught up), `{-1, ""}` when the lease is no longer the node's, and `{-2, SEQ}` (giving the lease back)
    /// when a report that still counts is ahead of the node. Otherwise empties the stream and the latest values,
    /// writes the node's, sets the sequence to the node's last number, notes the seed, the new epoch last, gives the
    /// lease back and answers `{1, new epoch}`. Idempotency keys still in Redis are kept; the node's recent ones
    /// (``RecentIdempotencyKeys``) are added where missing, so a retry of a change the node read counts once.
    static let seedScript = """
        local stored = redis.call('GET', KEYS[1])
        if stored and not (stored == ARGV[1] and tonumber(redis.call('GET', KEYS[2]) or '0') < tonumber(ARGV[2])) then
          return {0, stored}
        end
        if redis.call('GET', KEYS[5]) ~= ARGV[4] then return {-1, ''} end
        local t = redis.call('TIME')
        local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
        local best = 0
        for _, report in ipairs(redis.call('HVALS', KEYS[6])) do
          local seq, untilAt = string.match(report, '^(%d+) (%d+)$')
          if seq and tonumber(untilAt) >= now and tonumber(seq) > best then best = tonumber(seq) end
        end
        if best > tonumber(ARGV[2]) then
          redis.call('DEL', KEYS[5])
          return {-2, tostring(best)}
        end
        redis.call('DEL', KEYS[2], KEYS[3], KEYS[4], KEYS[6])
        local remembered = tonumber(ARGV[5])
        for j = 0, remembered - 1 do
          local at = 6 + 4 * j
          if redis.call('HSETNX', KEYS[8], ARGV[at], ARGV[at + 1]) == 1 then
            redis.call('RPUSH', KEYS[9], ARGV[at + 2] .. ' ' .. ARGV[at + 3] .. ' ' .. ARGV[at])
            redis.call('INCRBY', KEYS[10], ARGV[at + 3])
          end
        end
        for i = 6 + 4 * remembered, #ARGV, 2 do redis.call('HSET', KEYS[4], ARGV[i], ARGV[i + 1]) end
        redis.call('HSET', KEYS[4], '_seq', ARGV[2])
        redis.call('SET', KEYS[2], ARGV[2])
        redis.call('SET', KEYS[7], ARGV[3] .. ' ' .. ARGV[2])
        redis.call('SET', KEYS[1], ARGV[3])
        redis.call('DEL', KEYS[5])
        return {1, ARGV[3]}
        """

    /// The `EVAL` of ``seedScript`` for a node of `epoch` holding `model` and the idempotency keys it read last
    /// (`remembered`), under `newEpoch` and the lease `token`.
    func seedCommand(
        epoch: String, newEpoch: String, token: String, model: StoreModel,
        remembered: ArraySlice<RecentIdempotencyKeys.Key> = []
    ) -> [[UInt8]] {
        var arguments: [[UInt8]] = [
            Array("EVAL".utf8), Array(Self.seedScript.utf8), Array("10".utf8), Array(self.epoch.utf8),
            Array(sequence.utf8), Array(changes.utf8), Array(latest.utf8), Array(recoveryLease.utf8),
            Array(recoveryPositions.utf8), Array(recoverySeed.utf8), Array(idempotency.utf8),
            Array(idempotencyOrder.utf8), Array(idempotencyBytes.utf8),
            Array(epoch.utf8), Array("\(model.lastSeq)".utf8), Array(newEpoch.utf8), Array(token.utf8),
            Array("\(remembered.count)".utf8),
        ]
        for key in remembered {
            arguments += [
                Array(key.field.utf8), key.value, Array("\(key.committedAt)".utf8), Array("\(key.cost)".utf8),
            ]
        }
        for (seq, record) in model.restingRecords {
            for entry in Self.latestEntries(of: record) {
                arguments.append(Array(entry.field.utf8))
                arguments.append(Array("\(seq + entry.offset):".utf8) + entry.record.payload)
            }
        }
        return arguments
    }
}
