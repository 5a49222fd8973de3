import Dispatch
import RollboardAnimation
import Synchronization
import RollboardRedis

// Leaderboard edits on Redis: the node resolves the edit against the board it knows and appends the whole board
// only if the latest-values hash still holds that board; otherwise it learns the newer board from the answer and
// tries again. Every node then sees whole boards in the stream's order, and one catching up from the hash alone
// (the stream trimmed) has the same totals.
extension RedisChangeLog {
    /// Attempts before an edit that keeps meeting newer boards is given up (503).
    static let leaderboardAttempts = 16

    /// Runs the edit once the node's edits before it are answered, from the newest board this node knows (its own
    /// last commit, a newer board Redis showed it, or what it read from the stream).
    public func commitLeaderboard(
        _ id: String, edit: LeaderboardEdit, limit: Int, problem: @escaping @Sendable (Double) -> String?,
        completion: @escaping @Sendable (Result<StoredLeaderboard, LeaderboardCommitError>) -> Void
    ) {
        let run: @Sendable () -> Void = { [weak self] in
            guard let self else { return completion(.failure(.store(.closed))) }
            let known = leaderboardLane.withLock { $0.known[id] }
            let base = [known, snapshot.leaderboard(id)].compactMap { $0 }.max { $0.seq < $1.seq }
            attemptLeaderboard(id, edit: edit, limit: limit, problem: problem, base: base, attempt: 1) { [weak self] result in
                let next = self?.leaderboardLane.withLock { lane in
                    if case .success(let board) = result { lane.learn(board) }
                    return lane.finish()
                }
                completion(result)
                // Off this stack: while Redis is out of reach every waiting edit fails at once, one after another.
                if let next { DispatchQueue.global().async(execute: next) }
            }
        }
        if leaderboardLane.withLock({ $0.admit(run) }) { run() }
    }

    private func attemptLeaderboard(
        _ id: String, edit: LeaderboardEdit, limit: Int, problem: @escaping @Sendable (Double) -> String?,
        base: StoredLeaderboard?, attempt: Int,
        _ completion: @escaping @Sendable (Result<StoredLeaderboard, LeaderboardCommitError>) -> Void
    ) {
        let entries: [LeaderboardEntry]
        switch edit.resolved(against: base?.entries, limit: limit, problem: problem) {
        case .failure(let refusal): return completion(.failure(.refused(refusal)))
        case .success(let resolved): entries = resolved
        }
        let record = StoreChange.leaderboard(StoredLeaderboard(id: id, entries: entries, seq: 0, updatedAt: clock()))
        sendGuarded(record, field: "b:" + id, expectedSeq: base?.seq ?? 0) { [weak self] result in
            switch result {
            case .failure(let error):
                completion(.failure(.store(error)))
            case .success(.appended(let first)):
                guard case .leaderboard(let committed) = record.restamped(adding: first) else { return }
                completion(.success(committed))
            case .success(.stale(let newer)):
                if let newer { self?.leaderboardLane.withLock { $0.learn(newer) } }
                guard let self, attempt < Self.leaderboardAttempts else {
                    return completion(
                        .failure(.store(.unreachable("other writers kept changing leaderboard \(id); nothing was applied"))))
                }
                self.attemptLeaderboard(
                    id, edit: edit, limit: limit, problem: problem, base: newer, attempt: attempt + 1, completion)
            }
        }
    }

    /// What the guarded script did.
    enum GuardedReply: Sendable {
        /// Appended; the change's sequence number.
        case appended(UInt64)
        /// Appended nothing: the field held another board (`nil`: none).
        case stale(StoredLeaderboard?)
    }

    /// Runs ``RedisKeys/guardedAppendScript`` for a one-part change whose latest field is `field`.
    private func sendGuarded(
        _ record: StoreChange, field: String, expectedSeq: UInt64,
        completion: @escaping @Sendable (Result<GuardedReply, StoreError>) -> Void
    ) {
        let started = monotonicSeconds()
        let admitted: Result<(RedisConnection, Int, Int), StoreError> = state.withLock { state in
            if let failure = state.failure { return .failure(failure) }
            guard let writer = state.writer else { return .failure(.unreachable("not connected")) }
            let ticket = state.nextTicket
            state.nextTicket += 1
            state.inFlight[ticket] = started
            return .success((writer, ticket, state.generation))
        }
        guard case .success(let (writer, ticket, generation)) = admitted else {
            if case .failure(let error) = admitted { completion(.failure(error)) }
            return
        }
        let payload = record.payload
        let arguments: [[UInt8]] = [
            Array("EVAL".utf8), Array(RedisKeys.guardedAppendScript.utf8), Array("3".utf8),
            Array(keys.sequence.utf8), Array(keys.changes.utf8), Array(keys.latest.utf8),
            Array(field.utf8), Array("\(expectedSeq)".utf8), Array("\(streamLength)".utf8), payload, payload,
        ]
        writer.send(arguments, timeout: Self.commandTimeout) { [weak self] result in
            guard let self else { return }
            let seconds = monotonicSeconds() - started
            state.withLock { state in
                state.inFlight[ticket] = nil
                state.statistics.recordCommand(seconds: seconds)
            }
            switch result {
            case .success(.array(let parts)) where parts.count == 2:
                if let first = parts[0].integerValue, first > 0 {
                    for observer in commitObservers.withLock({ $0 }) { observer(seconds) }
                    completion(.success(.appended(UInt64(first))))
                } else if case .bulk(let value) = parts[1], let newer = RedisKeys.decodeLeaderboard(value) {
                    completion(.success(.stale(newer)))
                } else {
                    completion(.failure(.unreachable("Redis answered the guarded append with \(parts)")))
                }
            case .success(let other):
                completion(.failure(.unreachable("Redis answered the guarded append with \(other)")))
            case .failure(let error):
                completion(
                    .failure(.unreachable("the connection to Redis failed before it confirmed the change: \(error)")))
                connectionLost(generation: generation, error)
            }
        }
    }
}

extension RedisKeys {
    /// KEYS: sequence, stream, latest. ARGV: latest field, the sequence number it must hold (0: absent), stream
    /// length, record, latest record. Appends a one-part change only while the field is unchanged: returns the
    /// sequence number and the entry's id, or `{0, the field's value or ""}`.
    static let guardedAppendScript = """
        local now = redis.call('HGET', KEYS[3], ARGV[1])
        local seq = '0'
        if now then seq = string.match(now, '^(%d+):') end
        if seq ~= ARGV[2] then return {0, now or ''} end
        local last = redis.call('INCR', KEYS[1])
        local id = redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[3], '*', 's', tostring(last), 'r', ARGV[4])
        redis.call('HSET', KEYS[3], ARGV[1], tostring(last) .. ':' .. ARGV[5], '_pos', id, '_seq', tostring(last))
        return {last, id}
        """

    /// A `b:ID` field's `SEQ:RECORD` (or empty: no board) as a board; `nil` if it is not one.
    static func decodeLeaderboard(_ value: [UInt8]) -> StoredLeaderboard?? {
        if value.isEmpty { return .some(nil) }
        guard let colon = value.firstIndex(of: UInt8(ascii: ":")),
            let seq = UInt64(String(decoding: value[..<colon], as: UTF8.self)),
            case .leaderboard(let board)? = StoreChange(payload: value[(colon + 1)...])?.restamped(adding: seq)
        else { return nil }
        return .some(board)
    }
}
