import RollboardAnimation
package import RollboardConfig
package import RollboardCore
import RollboardNet
import RollboardRedis
package import RollboardStore

/// The keys a cluster shares in Redis, the script that appends a change, and how stream entries and the
/// latest-values hash are read back. Every key carries the prefix as a hash tag (`{rollboard}:…`), so the script's
/// keys live in one slot of a Redis Cluster too.
///
/// - `{P}:epoch`: the cluster's epoch, set once by the first node (`SET NX`).
/// - `{P}:seq`: the last sequence number drawn.
/// - `{P}:changes`: the stream; an entry has `s` (its first sequence number), `r` (the journal record, sequence
///   numbers relative to `s`) and, when a producer gave queue policies, `p` (one per update, comma-separated).
/// - `{P}:latest`: per metric (`m:ID`), wheel (`w:ID`), text (`t:ID`), slide set (`s:ID`), leaderboard (`b:ID`)
///   and viewer key (`k:ID`, its creation or its revocation) the latest record as
///   `SEQ:RECORD`, plus `_pos` (the stream id of the newest change) and `_seq` (its last sequence number).
/// - `{P}:recovery`: the lease of the node seeding Redis again after it lost its data (``seedScript``).
/// - `{P}:idem`: per remembered key (`r:KEY` a metric request's `Idempotency-Key`, `e:ID` a batch item's `eventId`,
///   `b:KEY` a leaderboard request's key) its answer as `SEQ:ANSWER` (``RememberedAnswer``, numbers relative to `SEQ`);
///   `{P}:idem:order` the keys in the order they were remembered (`TIME COST KEY`); `{P}:idem:bytes` the sum of their
///   costs. The append script forgets from the front of the order whatever is older than a day, and as much more as
///   keeps the sum within the budget. (`{P}:idem:KEY`, a key as an earlier version kept it, with `EX`, is still read.)
struct RedisKeys: Sendable {
    let epoch: String
    let sequence: String
    let changes: String
    let latest: String

    init(prefix: String) {
        epoch = "{\(prefix)}:epoch"
        sequence = "{\(prefix)}:seq"
        changes = "{\(prefix)}:changes"
        latest = "{\(prefix)}:latest"
        idempotency = "{\(prefix)}:idem"
        idempotencyOrder = "{\(prefix)}:idem:order"
        idempotencyBytes = "{\(prefix)}:idem:bytes"
        idempotencyPrefix = "{\(prefix)}:idem:"
        recoveryLease = "{\(prefix)}:recovery"
        pairingPrefix = "{\(prefix)}:pairing:"
        screenLists = "{\(prefix)}:screens"
        screensWatched = "{\(prefix)}:screens:watched"
    }

    /// The nodes' published screen lists (``RedisScreenLists``), a hash by node id.
    let screenLists: String

    /// Set while some node is asked for the cluster's screens: every node publishes its list then.
    let screensWatched: String

    /// Where pairing codes and their answers live (``RedisPairings``).
    let pairingPrefix: String

    /// A pending pairing code: `{"secretHash","node"}`.
    func pairing(_ code: String) -> String { pairingPrefix + code }

    /// The answer for the TV whose secret has the SHA-256 `hash`: `{"keyId","url"}`.
    func pairingAnswer(_ hash: String) -> String { pairingPrefix + "answer:" + hash }

    /// The lease of the node that seeds a Redis that lost the cluster's data (`SET NX PX`, its token).
    let recoveryLease: String

    /// The hash of remembered keys, the list of their order and the sum of their costs.
    let idempotency: String
    let idempotencyOrder: String
    let idempotencyBytes: String
    let idempotencyPrefix: String

    /// Where an earlier version kept an ``IdempotencyMemory`` key (`r:KEY`, `e:ID`, `b:KEY`) on its own, with an
    /// expiry: still read, so a retry across an upgrade is answered.
    func legacyIdempotency(_ memoryKey: String) -> String { idempotencyPrefix + memoryKey }

    /// A latest value the append script must find unchanged (`seq` 0: never set) before it appends.
    struct Guard: Sendable, Equatable {
        var field: String
        var seq: UInt64
    }

    /// An idempotency key the append script must not find, and remembers with the change.
    struct RememberedKey: Sendable {
        /// The memory key (`r:KEY`, `e:ID`, `b:KEY`).
        var key: String
        /// The answer's first sequence number relative to the change's first.
        var offset: UInt64
        /// The answer, its numbers relative to `offset`.
        var answer: RememberedAnswer

        init(key: String, offset: UInt64, answer: RememberedAnswer) {
            self.key = key
            self.offset = offset
            self.answer = answer
        }

        var encoded: [UInt8] { answer.encoded }
    }

    /// One field of the latest-values hash written with a change.
    struct LatestEntry: Sendable {
        var field: String
        /// The record's sequence number relative to the change's first.
        var offset: UInt64
        /// The record, sequence number 0.
        var record: StoreChange
    }

    /// The latest-values fields a change writes: one per metric of a batch (`m:ID`), wheel (`w:ID`), text (`t:ID`),
    /// slide set (`s:ID`) and viewer key (`k:ID`); events write none.
    static func latestEntries(of change: StoreChange) -> [LatestEntry] {
        func entry(_ prefix: String, _ id: String, _ record: StoreChange) -> LatestEntry {
            LatestEntry(field: prefix + id, offset: 0, record: record)
        }
        switch change {
        case .metrics(let metrics):
            return metrics.map { metric in
                var alone = metric
                alone.seq = 0
                return LatestEntry(field: "m:" + metric.id, offset: metric.seq, record: .metrics([alone]))
            }
        case .wheel(let wheel): return [entry("w:", wheel.id, change)]
        case .text(let text): return [entry("t:", text.id, change)]
        case .slides(let slides): return [entry("s:", slides.id, change)]
        case .viewerKey(let key): return [entry("k:", key.keyID, change)]
        case .leaderboard(let board): return [entry("b:", board.id, change)]
        case .carousel, .playlist, .screens, .sourceHealth: return []
        }
    }

    /// KEYS: sequence, stream, latest, the remembered keys' hash, their order and their byte sum, then per key to
    /// remember where an earlier version kept it. ARGV: count of sequence numbers, stream length, record, policies,
    /// seconds a key is remembered, guard count, key count, the commit time, the byte budget, then per guard: latest
    /// field and the sequence number it must hold (0: absent), per key: its name, offset, cost and answer, then per
    /// latest field: field, offset, record. Before anything else, keys older than a day are forgotten from the front
    /// of the order. When a guard's field changed or a key exists, nothing is written and the answer is
    /// `{0, "m", field, its value or "", …, "k", key index, its value, …}`; otherwise the first sequence number and
    /// the entry's id, and the oldest keys are forgotten until the byte sum is within the budget. The last KEY is the
    /// epoch and the last ARGV the epoch the node holds: when Redis holds another one (or none: it lost its data
    /// without dropping the connection, a `FLUSHALL`), nothing is written and the answer is the error `EPOCH …`. The
    /// ARGV before it is the entry's `k` field (``RecentIdempotencyKeys/field(_:)``, empty: none), so every node
    /// reading the stream learns the keys and can seed them after a loss.
    static let appendScript = """
        if redis.call('GET', KEYS[#KEYS]) ~= ARGV[#ARGV] then
          return redis.error_reply('EPOCH Redis no longer holds the epoch the node writes in')
        end
        local guards = tonumber(ARGV[6])
        local remembered = tonumber(ARGV[7])
        local oldest = tonumber(ARGV[8]) - tonumber(ARGV[5])
        local budget = tonumber(ARGV[9])
        local total = 0
        local function forget()
          while true do
            local head = redis.call('LINDEX', KEYS[5], 0)
            if not head then break end
            local at, cost, field = string.match(head, '^(%S+) (%d+) (.*)$')
            if tonumber(at) > oldest and total <= budget then break end
            redis.call('LPOP', KEYS[5])
            redis.call('HDEL', KEYS[4], field)
            total = total - tonumber(cost)
          end
          if total < 0 or redis.call('LLEN', KEYS[5]) == 0 then total = 0 end
          redis.call('SET', KEYS[6], tostring(total))
        end
        if remembered > 0 then
          total = tonumber(redis.call('GET', KEYS[6]) or '0')
          forget()
        end
        local stale = {0}
        for g = 0, guards - 1 do
          local field = ARGV[10 + 2 * g]
          local now = redis.call('HGET', KEYS[3], field)
          local seq = '0'
          if now then seq = string.match(now, '^(%d+):') end
          if seq ~= ARGV[11 + 2 * g] then
            table.insert(stale, 'm'); table.insert(stale, field); table.insert(stale, now or '')
          end
        end
        local keysAt = 10 + 2 * guards
        for k = 1, remembered do
          local seen = redis.call('HGET', KEYS[4], ARGV[keysAt + 4 * (k - 1)])
          if not seen then seen = redis.call('GET', KEYS[6 + k]) end
          if seen then table.insert(stale, 'k'); table.insert(stale, tostring(k)); table.insert(stale, seen) end
        end
        if #stale > 1 then return stale end
        local count = tonumber(ARGV[1])
        local last = redis.call('INCRBY', KEYS[1], count)
        local first = last - count + 1
        local fields = {'s', tostring(first), 'r', ARGV[3]}
        if ARGV[4] ~= '' then table.insert(fields, 'p'); table.insert(fields, ARGV[4]) end
        if ARGV[#ARGV - 1] ~= '' then table.insert(fields, 'k'); table.insert(fields, ARGV[#ARGV - 1]) end
        local id = redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[2], '*', unpack(fields))
        for k = 1, remembered do
          local at = keysAt + 4 * (k - 1)
          redis.call('HSET', KEYS[4], ARGV[at], tostring(first + tonumber(ARGV[at + 1])) .. ':' .. ARGV[at + 3])
          redis.call('RPUSH', KEYS[5], ARGV[8] .. ' ' .. ARGV[at + 2] .. ' ' .. ARGV[at])
          total = total + tonumber(ARGV[at + 2])
        end
        if remembered > 0 then forget() end
        for i = keysAt + 4 * remembered, #ARGV - 2, 3 do
          redis.call('HSET', KEYS[3], ARGV[i], tostring(first + tonumber(ARGV[i + 1])) .. ':' .. ARGV[i + 2])
        end
        redis.call('HSET', KEYS[3], '_pos', id, '_seq', tostring(last))
        return {first, id}
        """

    /// A stream entry read back.
    struct Entry {
        var id: String
        var firstSeq: UInt64
        var record: StoreChange
        /// The idempotency keys the change was committed under (its `k` field).
        var keys: [RecentIdempotencyKeys.Key] = []
    }

    /// `[id, [field, value, …]]` as `XREAD` gives it; `nil` if it is not an entry Rollboard wrote.
    static func decodeEntry(_ reply: RedisReply) -> Entry? {
        guard let (id, firstSeq, values) = entryFields(reply), let payload = values["r"],
            let relative = StoreChange(payload: payload[...])
        else { return nil }
        var record = relative.restamped(adding: firstSeq)
        if let policies = values["p"], case .metrics(var metrics) = record {
            let text = String(decoding: policies, as: UTF8.self)
            let names = text.split(separator: ",", omittingEmptySubsequences: false)
            for (index, name) in names.enumerated() where index < metrics.count {
                metrics[index].policy = QueuePolicy(rawValue: String(name))
            }
            record = .metrics(metrics)
        }
        let keys = values["k"].flatMap {
            RecentIdempotencyKeys.keys(inField: $0, firstSeq: firstSeq, committedAt: record.updatedAt)
        }
        return Entry(id: id, firstSeq: firstSeq, record: record, keys: keys ?? [])
    }

    /// Where an entry stands and its kind byte when its change is of a kind this node does not know (a newer node wrote
    /// it during a rolling upgrade); `nil` for any other entry (one it reads, or garbage).
    static func decodeUnknownEntry(_ reply: RedisReply) -> (id: String, firstSeq: UInt64, kind: UInt8)? {
        guard let (id, firstSeq, values) = entryFields(reply), let payload = values["r"],
            let kind = StoreChange.unknownKind(ofPayload: payload[...])
        else { return nil }
        return (id, firstSeq, kind)
    }

    /// An entry's id, first sequence number (`s`) and fields.
    private static func entryFields(_ reply: RedisReply) -> (id: String, firstSeq: UInt64, values: [String: [UInt8]])? {
        guard case .array(let parts) = reply, parts.count == 2, let id = parts[0].string,
            case .array(let fields) = parts[1], fields.count % 2 == 0
        else { return nil }
        var values: [String: [UInt8]] = [:]
        for index in stride(from: 0, to: fields.count, by: 2) {
            guard let name = fields[index].string, case .bulk(let value) = fields[index + 1] else { return nil }
            values[name] = value
        }
        guard let seqText = values["s"], let firstSeq = UInt64(String(decoding: seqText, as: UTF8.self)), firstSeq > 0
        else { return nil }
        return (id, firstSeq, values)
    }

    /// The latest-values hash read back.
    struct Latest {
        var records: [StoreChange] = []
        /// The stream id of the newest change, `nil` before the first.
        var position: String?
        var lastSeq: UInt64 = 0
    }

    /// A `SEQ:RECORD` value (a latest field, a remembered idempotency key), numbered from `SEQ`; `nil` if it is not.
    static func decodeNumbered(_ value: ArraySlice<UInt8>) -> StoreChange? {
        guard let colon = value.firstIndex(of: UInt8(ascii: ":")),
            let seq = UInt64(String(decoding: value[..<colon], as: UTF8.self)),
            let record = StoreChange(payload: value[(colon + 1)...])
        else { return nil }
        return record.restamped(adding: seq)
    }

    /// `HGETALL`'s reply; `nil` if a field is not what Rollboard writes.
    static func decodeLatest(_ reply: RedisReply) -> Latest? {
        guard case .array(let items) = reply, items.count % 2 == 0 else { return nil }
        var latest = Latest()
        for index in stride(from: 0, to: items.count, by: 2) {
            guard let field = items[index].string, case .bulk(let value) = items[index + 1] else { return nil }
            switch field {
            case "_pos":
                latest.position = String(decoding: value, as: UTF8.self)
            case "_seq":
                guard let seq = UInt64(String(decoding: value, as: UTF8.self)) else { return nil }
                latest.lastSeq = seq
            default:
                if let record = decodeNumbered(value[...]) {
                    latest.records.append(record)
                } else if let colon = value.firstIndex(of: UInt8(ascii: ":")),
                    StoreChange.unknownKind(ofPayload: value[(colon + 1)...]) != nil
                {
                    continue  // a kind a newer node wrote (a rolling upgrade): left out, as its stream entries are
                } else {
                    return nil
                }
            }
        }
        return latest
    }
}
