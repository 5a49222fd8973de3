import Dispatch
import Logging
import RollboardCore
import RollboardMetrics
import RollboardRedis
import RollboardStore
import Synchronization

// Recovering from a Redis that answers without this cluster's history, driven by ``RedisRecoveryMachine``: every input
// goes through `queue` (dropped once the link's generation moved on), the machine decides, and `performRecovery`
// carries its actions out on the connections the reconnection opened. See docs/cluster.md, "Redis lost its data".
extension RedisChangeLog {
    typealias RecoveryAction = RedisRecoveryMachine.Action

    /// How long a node's reported position counts for the seed (it reports again at each check, at least each second).
    static let positionReportMilliseconds = 3_000

    /// Where a recovery started: the epoch and the last change this node had.
    struct RecoveryStart: Sendable {
        var epoch = ""
        var lastSeq: UInt64 = 0
        /// This node's lease token.
        var token = ""
    }

    /// The link went `.recovering` for `generation`, with both connections in place: a recovery starts.
    func recover(generation: Int) {
        dispatchPrecondition(condition: .onQueue(queue))
        let token = (try? SecureRandom.hex(8)) ?? "\(linkClock.now())"
        let actions = state.withLock { state in
            state.recoveryStart = RecoveryStart(epoch: state.epoch, lastSeq: state.model.lastSeq, token: token)
            return state.recovery.start(now: linkClock.now())
        }
        performRecovery(actions, generation: generation)
    }

    /// Carries out the recovery machine's actions, in order, on `queue`.
    func performRecovery(_ actions: [RecoveryAction], generation: Int) {
        dispatchPrecondition(condition: .onQueue(queue))
        for action in actions {
            switch action {
            case .check:
                let keys = self.keys
                recoveryCall(generation, ["GET", keys.epoch]) { [self] stored in
                    recoveryCall(generation, ["GET", keys.sequence]) { [self] sequence in
                        recoveryInput(generation) { state, now in
                            let finding = RedisRecoveryMachine.Finding(
                                stored: stored.string, sequence: sequence.string.flatMap { UInt64($0) } ?? 0,
                                epoch: state.epoch, lastSeq: state.model.lastSeq)
                            return state.recovery.checked(finding, now: now)
                        }
                    }
                }
            case .tryLease(let milliseconds):
                let (token, lastSeq) = state.withLock { ($0.recoveryStart.token, $0.model.lastSeq) }
                let report = [
                    "EVAL", RedisKeys.reportScript, "1", keys.recoveryPositions, token, "\(lastSeq)",
                    "\(Self.positionReportMilliseconds)",
                ]
                recoveryCall(generation, report) { [self] _ in
                    recoveryCall(generation, ["SET", keys.recoveryLease, token, "NX", "PX", "\(milliseconds)"]) {
                        [self] reply in
                        recoveryInput(generation) { state, now in
                            state.recovery.leaseAnswered(granted: reply.string == "OK", now: now)
                        }
                    }
                }
            case .seed:
                seed(generation: generation)
            case .adopt(let epoch):
                adopt(epoch, generation: generation)
            case .finish(let outcome):
                finishRecovery(outcome, generation: generation)
            case .abandon(let reason):
                logger.warning("gave up recovering Redis's data; reconnecting", metadata: ["reason": "\(reason)"])
                let now = linkClock.now()
                perform(
                    state.withLock {
                        $0.link.reconnectFailed(
                            generation: generation, reason: reason, now: now, jitter: Double.random(in: 0.8...1.2))
                    })
            case .wake(let time):
                linkTimer.arm(at: time)
            }
        }
    }

    /// The link's timer fired while recovering: a check may be due.
    func recoveryTimerFired(generation: Int) {
        let now = linkClock.now()
        performRecovery(state.withLock { $0.recovery.timerFired(now: now) }, generation: generation)
    }

    /// Feeds one input to the machine on `queue`, if `generation` is still recovering.
    private func recoveryInput(
        _ generation: Int, _ input: @escaping @Sendable (inout State, Double) -> [RecoveryAction]
    ) {
        queue.async { [self] in
            let now = linkClock.now()
            let actions = state.withLock { state -> [RecoveryAction] in
                guard state.generation == generation, state.link.phase == .recovering else { return [] }
                return input(&state, now)
            }
            performRecovery(actions, generation: generation)
        }
    }

    private func recoveryFailed(_ generation: Int, _ reason: String) {
        recoveryInput(generation) { state, _ in state.recovery.failed(reason: reason) }
    }

    /// One command on the writing connection; a failure (or an error reply) abandons the recovery.
    private func recoveryCall(
        _ generation: Int, _ arguments: [String], next: @escaping @Sendable (RedisReply) -> Void
    ) {
        guard let writer = state.withLock({ $0.generation == generation ? $0.writer : nil }) else { return }
        Self.call(writer, arguments, { [weak self] error in self?.recoveryFailed(generation, "\(error)") }, next: next)
    }

    /// Runs the seed script with what this node holds, under a new epoch.
    private func seed(generation: Int) {
        let held = state.withLock { state in
            state.generation == generation
                ? state.writer.map { ($0, state.epoch, state.model, state.recoveryStart, state.recentKeys.newest) } : nil
        }
        guard let (writer, epoch, model, start, recentKeys) = held else { return }
        let newEpoch: String
        do { newEpoch = try SecureRandom.hex(8) } catch { return recoveryFailed(generation, "no random epoch: \(error)") }
        let command = keys.seedCommand(
            epoch: epoch, newEpoch: newEpoch, token: start.token, model: model, remembered: recentKeys)
        writer.send(command, timeout: Self.commandTimeout) { [weak self] result in
            guard let self else { return }
            guard case .success(.array(let parts)) = result, let code = parts.first?.integerValue else {
                return recoveryFailed(generation, "the seed script answered \(result)")
            }
            recoveryInput(generation) { state, now in
                guard code == 1 else {
                    let answer: RedisRecoveryMachine.SeedAnswer =
                        code == 0 ? .anotherEpoch : code == -2 ? .behind : .leaseLost
                    return state.recovery.seedAnswered(answer, now: now)
                }
                state.epoch = newEpoch
                state.position = "0"
                state.statistics.recoverySeeds += 1
                return state.recovery.seedAnswered(.seeded, now: now)
            }
        }
    }

    /// Takes the epoch another node seeded: a node that stands at the change the seed was made at keeps its state (its
    /// history and series) and reads the new stream from its start; any other loads what Redis holds, and the
    /// subscribers are told the values as they stand.
    private func adopt(_ epoch: String, generation: Int) {
        let failed: @Sendable (RedisError) -> Void = { [weak self] error in self?.recoveryFailed(generation, "\(error)") }
        recoveryCall(generation, ["GET", keys.recoverySeed]) { [self] seed in
            let seededAt = seed.string.flatMap { text -> UInt64? in
                let parts = text.split(separator: " ")
                return parts.count == 2 && parts[0] == epoch ? UInt64(parts[1]) : nil
            }
            let had = state.withLock { $0.model.lastSeq }
            if seededAt == had {
                return adopted(epoch, generation: generation, seededAt: had, loaded: nil)
            }
            guard let writer = state.withLock({ $0.generation == generation ? $0.writer : nil }) else { return }
            Self.load(writer, keys: keys, historyLimit: historyLimit, seriesLimits: seriesLimits, failed) {
                [weak self] loaded in
                self?.adopted(epoch, generation: generation, seededAt: seededAt ?? loaded.model.lastSeq, loaded: loaded)
            }
        }
    }

    /// Adopts `epoch` seeded at `seededAt`, with what Redis holds (`loaded`) or, if `nil`, this node's own state.
    private func adopted(_ epoch: String, generation: Int, seededAt: UInt64, loaded: Loaded?) {
        queue.async { [self] in
            let (actions, told) = state.withLock { state -> ([RecoveryAction], [StoreChange]) in
                guard state.generation == generation, state.link.phase == .recovering else { return ([], []) }
                let had = state.model.lastSeq
                state.statistics.recoveryLostChanges += Int(had > seededAt ? had - seededAt : 0)
                if let loaded { state.model = loaded.model }
                state.epoch = epoch
                state.position = loaded?.position ?? "0"
                return (state.recovery.adopted(), loaded?.latest.map(\.atRest) ?? [])
            }
            deliver(told)
            performRecovery(actions, generation: generation)
        }
    }

    /// The recovery ended: one log line says what happened, and the link accepts changes again.
    private func finishRecovery(_ outcome: RedisRecoveryMachine.Outcome, generation: Int) {
        let (actions, start, epoch, lastSeq, lost) = state.withLock { state in
            if outcome != .intact { state.statistics.recoveries += 1 }
            let start = state.recoveryStart
            let lost = start.lastSeq > state.model.lastSeq ? start.lastSeq - state.model.lastSeq : 0
            return (state.link.reconnected(generation: generation), start, state.epoch, state.model.lastSeq, lost)
        }
        let by: String =
            switch outcome {
            case .seeded: "this node"
            case .adopted: "another node"
            case .intact: "nobody (Redis held this cluster's history)"
            }
        logger.notice(
            "Redis lost its data; recovered",
            metadata: [
                "epoch": "\(start.epoch) -> \(epoch)", "seededBy": "\(by)", "seq": "\(start.lastSeq) -> \(lastSeq)",
                "changesLost": "\(lost)",
            ])
        perform(actions)
    }
}
