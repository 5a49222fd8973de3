package import RollboardConfig
package import RollboardMetrics
package import RollboardStore

/// The Redis change log's link to Redis, without I/O or clocks: the log starts and opens (waiting, with backoff, for
/// a Redis that does not answer yet), connections are lost, reconnections are tried with backoff and succeed or fail,
/// the reader catches up, the log closes. Each input takes `now` (monotonic seconds)
/// where time matters and returns the ``Action``s the driver carries out, in order; `.wake(at:)` arms the one timer
/// that brings the next retry.
///
/// A generation counts connections: inputs about an older generation (a reply that arrives after its connection was
/// given up) change nothing.
struct RedisLinkMachine: Equatable {
    enum Phase: Equatable {
        /// Built, not started: nothing is connected and changes are refused.
        case idle
        /// Both connections work (the reader may still be catching up: see `isFeedLive`).
        case up
        /// Lost; the next reconnection is tried at `retryAt`.
        case down(retryAt: Double)
        /// An opening (before the first success) or a reconnection of the current generation is under way.
        case reconnecting
        /// Redis answers without this cluster's history (another epoch, or a sequence behind this node's): a
        /// ``RedisRecoveryMachine`` seeds it again or adopts the epoch another node seeded, on the connections of the
        /// current generation; changes are refused meanwhile.
        case recovering
        case closed
    }

    enum Action: Equatable {
        /// Close the connections of the generation that ended.
        case dropConnections
        /// Refuse changes with this reason (`StoreError.unreachable`), or `nil`: accept them again.
        case refuse(String?)
        /// Tell the feed observers whether changes reach this node.
        case feed(live: Bool)
        /// Open two connections for `generation`, agree on the epoch, load the latest values and the history the
        /// stream holds, then report ``reconnected(generation:)`` or
        /// ``reconnectFailed(generation:reason:now:jitter:)``.
        case open(generation: Int)
        /// Open two connections for `generation`, check the epoch and the sequence, then report
        /// ``reconnected(generation:)``, ``reconnectFailed(generation:reason:now:jitter:)`` or
        /// ``historyLost(generation:problem:)``.
        case reconnect(generation: Int)
        /// Recover Redis's data on the connections of `generation` (kept), then report
        /// ``reconnected(generation:)``, or ``reconnectFailed(generation:reason:now:jitter:)`` if the recovery gave up.
        case recover(generation: Int)
        /// Read the stream from this node's position without blocking, so the feed turns live as soon as nothing is
        /// missing.
        case read(generation: Int)
        /// Call ``timerFired(now:)`` at this time; `nil`: never.
        case wake(at: Double?)
    }

    static let firstDelay = 0.1
    static let maximumDelay = 2.0

    /// Why changes are refused before the log first opened.
    static let notOpenedYet = "Redis has not answered yet"

    private(set) var phase: Phase = .idle
    private(set) var generation = 0
    /// Whether the log has opened once: until then a retry opens (loads everything) instead of reconnecting.
    private(set) var hasOpened = false
    /// Whether changes reach this node: `false` until the log opened and the reader caught up, and from a loss until
    /// the reader caught up again.
    private(set) var isFeedLive = false
    /// The wait before the next reconnection, before jitter: 0.1 s, doubling after each failure up to 2 s.
    private(set) var delay = firstDelay

    /// The log starts: the first opening is tried at once (the node serves meanwhile, refusing changes and saying
    /// the feed is not live).
    mutating func start() -> [Action] {
        guard phase == .idle else { return [] }
        phase = .reconnecting
        return [.refuse(Self.notOpenedYet), .open(generation: generation)]
    }

    /// A connection of `generation` failed (a write, a read, a ping): drop both, refuse changes, tell the observers
    /// once, retry after the current delay (times `jitter`, 0.8 to 1.2).
    mutating func lost(generation lost: Int, reason: String, now: Double, jitter: Double) -> [Action] {
        guard lost == generation, phase == .up else { return [] }
        generation += 1
        let retryAt = now + delay * jitter
        phase = .down(retryAt: retryAt)
        var actions: [Action] = [.dropConnections, .refuse(reason)]
        if isFeedLive { actions.append(.feed(live: false)) }
        isFeedLive = false
        return actions + [.wake(at: retryAt)]
    }

    /// The timer fired: a reconnection starts if one is due.
    mutating func timerFired(now: Double) -> [Action] {
        guard case .down(let retryAt) = phase else { return [] }
        guard now >= retryAt else { return [.wake(at: retryAt)] }
        phase = .reconnecting
        return [hasOpened ? .reconnect(generation: generation) : .open(generation: generation)]
    }

    /// The opening, reconnection or recovery of `generation` works (and Redis holds this cluster's history): accept
    /// changes again and read what was missed; the delay starts over.
    mutating func reconnected(generation reconnected: Int) -> [Action] {
        guard reconnected == generation, phase == .reconnecting || phase == .recovering else { return [.dropConnections] }
        phase = .up
        hasOpened = true
        delay = Self.firstDelay
        return [.refuse(nil), .read(generation: generation)]
    }

    /// The opening or reconnection of `generation` failed, or its recovery gave up (its connections are dropped): the
    /// delay doubles (up to the maximum) and the next try is armed.
    mutating func reconnectFailed(generation failed: Int, reason: String, now: Double, jitter: Double) -> [Action] {
        guard failed == generation, phase == .reconnecting || phase == .recovering else { return [] }
        let dropping: [Action] = phase == .recovering ? [.dropConnections] : []
        generation += phase == .recovering ? 1 : 0
        delay = min(delay * 2, Self.maximumDelay)
        let retryAt = now + delay * jitter
        phase = .down(retryAt: retryAt)
        return dropping + [.refuse(reason), .wake(at: retryAt)]
    }

    /// Redis answered, but without this cluster's history: refuse changes while the data is recovered on the
    /// connections of this generation.
    mutating func historyLost(generation lost: Int, problem: String) -> [Action] {
        guard lost == generation, phase == .reconnecting else { return [] }
        phase = .recovering
        return [.refuse(problem), .recover(generation: generation)]
    }

    /// The reader of `generation` has read the stream to its end: the feed is live again (told once).
    mutating func caughtUp(generation caught: Int) -> [Action] {
        guard caught == generation, phase == .up, !isFeedLive else { return [] }
        isFeedLive = true
        return [.feed(live: true)]
    }

    /// The log closes: no more reconnections, replies of any generation are ignored (the driver refuses changes as
    /// closed and drops the connections once the writes in flight are answered).
    mutating func close() -> [Action] {
        guard phase != .closed else { return [] }
        phase = .closed
        generation += 1
        return [.wake(at: nil)]
    }
}
