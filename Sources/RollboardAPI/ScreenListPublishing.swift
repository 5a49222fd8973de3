/// When a node on Redis publishes its screen list (``ScreenListPublisher``), as a state machine on the node's
/// monotonic clock: every ``Defaults/interval`` seconds it asks whether some node was asked for the cluster's screens
/// within ``Defaults/watched`` seconds, and only then publishes, each publication kept ``Defaults/lifetime`` seconds
/// by Redis. One question or publication at a time: a tick while one is unanswered only waits for the next.
struct ScreenListPublishing: Sendable, Equatable {
    enum Defaults {
        /// Seconds between two publications.
        static let interval = 2.0
        /// Seconds Redis keeps a publication: a node that stops publishing drops out after it.
        static let lifetime = 6.0
        /// Seconds every node keeps publishing after the cluster's screens were last asked for.
        static let watched = 60.0
        /// Seconds a cluster-wide read that found the lists unwatched waits before it reads them again: a period and a
        /// half, so every node has published since.
        static let firstPublication = interval * 1.5
    }

    enum Action: Sendable, Equatable {
        /// Ask Redis whether the lists are watched; call ``asked(watched:)`` with the answer.
        case ask
        /// Publish the list now; call ``answered()`` once Redis answered (or did not).
        case publish
        /// Wake the machine at this time (`nil`: never again).
        case wake(Double?)
    }

    private var inFlight = false
    private var isStopped = false

    /// The node serves: ask now, and from then on every interval.
    mutating func start(now: Double) -> [Action] {
        timerFired(now: now)
    }

    mutating func timerFired(now: Double) -> [Action] {
        guard !isStopped else { return [.wake(nil)] }
        let ask: [Action] = inFlight ? [] : [.ask]
        inFlight = true
        return ask + [.wake(now + Defaults.interval)]
    }

    /// Redis answered whether the lists are watched (`nil`: it did not answer).
    mutating func asked(watched: Bool?) -> [Action] {
        guard watched == true, !isStopped else {
            inFlight = false
            return []
        }
        return [.publish]
    }

    /// The publication in flight was answered.
    mutating func answered() {
        inFlight = false
    }

    mutating func stop() -> [Action] {
        isStopped = true
        return [.wake(nil)]
    }
}
