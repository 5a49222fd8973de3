package import RollboardConfig
package import RollboardCore
package import RollboardMetrics
package import RollboardStore

/// Which sources this node polls when several nodes share one Redis, as a pure state machine: each source has a lease
/// in Redis (`SET key node NX PX ttl`, renewed while held) and only its holder polls it. Inputs carry `now`
/// (monotonic seconds); ``SourceLeases`` carries the actions out.
///
/// A lease lasts 1.5 periods and every node asks for it (or renews it) each half period, so when its holder dies
/// another node holds it within two periods. A holder that cannot renew in time (Redis out of reach) stops polling
/// when its lease would have run out.
package struct SourceLeaseMachine: Sendable, Equatable {
    enum Action: Sendable, Equatable {
        /// Ask Redis for the lease (`renew`: this node holds it and extends it), for `milliseconds`.
        case attempt(source: String, renew: Bool, milliseconds: Int)
        /// Give the lease back (a removed source).
        case release(source: String)
        case startPolling(String)
        case stopPolling(String)
        case wake(at: Double)
    }

    struct Lease: Sendable, Equatable {
        var every: Double
        var held = false
        /// Until when the lease is ours for sure: the last granted attempt's sending time plus the lease's length.
        var heldUntil = -Double.infinity
        var nextAttempt: Double
        /// When the attempt under way was sent; `nil` when none is.
        var sentAt: Double?

        var milliseconds: Int { Int(every * SourceLeaseMachine.leasePeriods * 1000) }
    }

    /// A lease's length in periods of its source.
    static let leasePeriods = 1.5

    private(set) var leases: [String: Lease] = [:]

    /// The sources in force and their periods: new ones are asked for now, removed ones given back.
    mutating func configure(_ sources: [(id: String, every: Double)], now: Double) -> [Action] {
        var actions: [Action] = []
        let ids = Set(sources.map(\.id))
        for (id, lease) in leases.sorted(by: { $0.key < $1.key }) where !ids.contains(id) {
            if lease.held { actions += [.stopPolling(id), .release(source: id)] }
            leases[id] = nil
        }
        for source in sources {
            if leases[source.id] == nil {
                leases[source.id] = Lease(every: source.every, nextAttempt: now)
            } else {
                leases[source.id]!.every = source.every
            }
        }
        return actions + timerFired(now: now)
    }

    mutating func timerFired(now: Double) -> [Action] {
        var actions: [Action] = []
        for id in leases.keys.sorted() {
            var lease = leases[id]!
            if lease.held && now >= lease.heldUntil {
                lease.held = false
                actions.append(.stopPolling(id))
            }
            if lease.sentAt == nil && now >= lease.nextAttempt {
                lease.sentAt = now
                actions.append(.attempt(source: id, renew: lease.held, milliseconds: lease.milliseconds))
            }
            leases[id] = lease
        }
        return actions + wake()
    }

    /// Redis answered an attempt: `granted` true (the lease is ours until its length after the attempt was sent),
    /// false (another node holds it), or `nil` (no answer: Redis out of reach).
    mutating func answered(_ id: String, granted: Bool?, now: Double) -> [Action] {
        guard var lease = leases[id], let sentAt = lease.sentAt else { return [] }
        var actions: [Action] = []
        lease.sentAt = nil
        lease.nextAttempt = now + lease.every / 2
        switch granted {
        case true?:
            lease.heldUntil = sentAt + Double(lease.milliseconds) / 1000
            if !lease.held { actions.append(.startPolling(id)) }
            lease.held = true
        case false?:
            if lease.held { actions.append(.stopPolling(id)) }
            lease.held = false
        case nil:
            if lease.held && now >= lease.heldUntil {
                lease.held = false
                actions.append(.stopPolling(id))
            }
        }
        leases[id] = lease
        return actions + wake()
    }

    /// The earliest moment something is due: an attempt, or a held lease running out.
    private func wake() -> [Action] {
        var times: [Double] = []
        for lease in leases.values {
            if lease.sentAt == nil { times.append(lease.nextAttempt) }
            if lease.held { times.append(lease.heldUntil) }
        }
        return times.min().map { [.wake(at: $0)] } ?? []
    }
}
