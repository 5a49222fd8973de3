/// What a node does once Redis answers without this cluster's history (it restarted without its data, was flushed or
/// replaced), without I/O or clocks: check what Redis holds; if nobody has seeded it yet, report this node's position
/// and ask for the recovery lease and, holding it, give the other nodes ``gatherSeconds`` to report theirs, then seed
/// Redis from what this node holds under a new epoch, unless a node reported a position ahead of it (then the lease
/// is given back for that node to take); if another node has seeded, adopt its epoch.
/// Each input takes `now` (monotonic seconds) where time matters and returns the ``Action``s the driver carries out,
/// in order; `.wake(at:)` arms the one timer that brings the next check.
///
/// A lease refused (another node seeds) is followed by a check just after the holder's gathering (0.35 s), then
/// checks doubling up to 1 s apart, until the new epoch
/// shows; a lease whose holder died runs out and is asked for again. A command that fails, or a recovery that has
/// not finished within ``giveUpAfter`` seconds, is abandoned: the link drops its connections and reconnects with its
/// backoff, which detects the loss again and starts a new recovery.
struct RedisRecoveryMachine: Equatable {
    /// What Redis holds, as a check reads it.
    enum Finding: Equatable {
        /// No epoch, or this cluster's epoch with a sequence behind this node's: nobody has seeded it yet.
        case lost
        /// Another epoch: a node seeded it.
        case newEpoch(String)
        /// This cluster's epoch, its sequence at or beyond this node's: nothing was lost.
        case intact

        /// The finding for Redis's epoch key and sequence, seen from a node of `epoch` whose last change is `lastSeq`.
        init(stored: String?, sequence: UInt64, epoch: String, lastSeq: UInt64) {
            switch stored {
            case nil: self = .lost
            case epoch?: self = sequence >= lastSeq ? .intact : .lost
            case let other?: self = .newEpoch(other)
            }
        }
    }

    /// How a recovery ended.
    enum Outcome: Equatable {
        /// This node seeded Redis under a new epoch.
        case seeded
        /// Another node did; this one took its epoch.
        case adopted
        /// Redis held this cluster's history after all.
        case intact
    }

    /// What the seed script answered.
    enum SeedAnswer: Equatable {
        case seeded
        /// Redis already holds an epoch this node did not seed (another node was faster): nothing was written.
        case anotherEpoch
        /// The lease ran out before the script ran: nothing was written.
        case leaseLost
        /// A node reported a position ahead of this one: nothing was written and the lease was given back.
        case behind
    }

    enum Phase: Equatable {
        case idle
        case checking
        case leasing
        /// Holding the lease, waiting for the other nodes' positions until `until`.
        case gathering(until: Double)
        case seeding
        case adopting
        case waiting(until: Double)
        case finished(Outcome)
        case abandoned
    }

    enum Action: Equatable {
        /// Read Redis's epoch and sequence, then report ``checked(_:now:)``.
        case check
        /// Report this node's position, ask for the recovery lease (`SET key node NX PX milliseconds`), then report
        /// ``leaseAnswered(granted:now:)``.
        case tryLease(milliseconds: Int)
        /// Write what this node holds under a new epoch in one script (the epoch last, only while the lease is this
        /// node's and Redis holds no other epoch), then report ``seedAnswered(_:now:)``.
        case seed
        /// Take `epoch`, loading what Redis holds if this node's state differs, then report ``adopted()``.
        case adopt(epoch: String)
        /// The recovery is over: accept changes again and follow the stream.
        case finish(Outcome)
        /// Give this recovery up: the link drops the connections and reconnects with its backoff.
        case abandon(String)
        case wake(at: Double?)
    }

    /// How long the recovery lease lasts: a seed takes milliseconds, a holder that died lets the others try again.
    static let leaseMilliseconds = 5_000
    /// Seconds the lease holder waits for the other nodes' positions before it seeds.
    static let gatherSeconds = 0.3
    /// The first check after a refused lease comes just after the holder's gathering, when its seed is due.
    static let firstPoll = gatherSeconds + 0.05
    static let maximumPoll = 1.0
    /// Seconds after which a recovery that has not finished is abandoned (and started again by the link).
    static let giveUpAfter = 30.0

    private(set) var phase: Phase = .idle
    private(set) var startedAt = 0.0
    /// The wait before the next check after a lease was refused.
    private(set) var poll = firstPoll

    var isActive: Bool {
        switch phase {
        case .idle, .finished, .abandoned: false
        case .checking, .leasing, .gathering, .seeding, .adopting, .waiting: true
        }
    }

    /// The link found Redis without this cluster's history: a recovery starts with a check.
    mutating func start(now: Double) -> [Action] {
        phase = .checking
        startedAt = now
        poll = Self.firstPoll
        return [.check]
    }

    mutating func checked(_ finding: Finding, now: Double) -> [Action] {
        guard phase == .checking else { return [] }
        switch finding {
        case .intact:
            phase = .finished(.intact)
            return [.finish(.intact)]
        case .newEpoch(let epoch):
            phase = .adopting
            return [.adopt(epoch: epoch)]
        case .lost:
            guard now - startedAt < Self.giveUpAfter else {
                return abandon("no node seeded Redis within \(Int(Self.giveUpAfter)) s")
            }
            phase = .leasing
            return [.tryLease(milliseconds: Self.leaseMilliseconds)]
        }
    }

    mutating func leaseAnswered(granted: Bool, now: Double) -> [Action] {
        guard phase == .leasing else { return [] }
        guard granted else { return wait(now: now) }
        phase = .gathering(until: now + Self.gatherSeconds)
        return [.wake(at: now + Self.gatherSeconds)]
    }

    mutating func seedAnswered(_ answer: SeedAnswer, now: Double) -> [Action] {
        guard case .seeding = phase else { return [] }
        switch answer {
        case .seeded:
            phase = .finished(.seeded)
            return [.finish(.seeded)]
        case .anotherEpoch:
            phase = .checking
            return [.check]
        case .leaseLost, .behind:
            return wait(now: now)
        }
    }

    mutating func adopted() -> [Action] {
        guard phase == .adopting else { return [] }
        phase = .finished(.adopted)
        return [.finish(.adopted)]
    }

    /// A command of the recovery failed (Redis out of reach again, or it refused one): give up this recovery.
    mutating func failed(reason: String) -> [Action] {
        guard isActive else { return [] }
        return abandon(reason)
    }

    mutating func timerFired(now: Double) -> [Action] {
        switch phase {
        case .waiting(let until), .gathering(let until):
            guard now >= until else { return [.wake(at: until)] }
            let gathered = phase == .gathering(until: until)
            phase = gathered ? .seeding : .checking
            return [gathered ? .seed : .check]
        default:
            return []
        }
    }

    private mutating func wait(now: Double) -> [Action] {
        let until = now + poll
        poll = min(poll * 2, Self.maximumPoll)
        phase = .waiting(until: until)
        return [.wake(at: until)]
    }

    private mutating func abandon(_ reason: String) -> [Action] {
        phase = .abandoned
        return [.wake(at: nil), .abandon(reason)]
    }
}
