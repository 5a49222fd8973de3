/// When a node on Redis publishes its screen list (``ScreenListPublisher``), as a state machine on the node's
/// monotonic clock: every ``Defaults/interval`` seconds, one publication at a time (a tick while one is unanswered
/// only waits for the next), each kept ``Defaults/lifetime`` seconds by Redis.
struct ScreenListPublishing: Sendable, Equatable {
    enum Defaults {
        /// Seconds between two publications.
        static let interval = 2.0
        /// Seconds Redis keeps a publication: a node that stops publishing drops out after it.
        static let lifetime = 6.0
    }

    enum Action: Sendable, Equatable {
        /// Publish the list now; call ``answered()`` once Redis answered (or did not).
        case publish
        /// Wake the machine at this time (`nil`: never again).
        case wake(Double?)
    }

    private var inFlight = false
    private var isStopped = false

    /// The node serves: publish now, and from then on every interval.
    mutating func start(now: Double) -> [Action] {
        timerFired(now: now)
    }

    mutating func timerFired(now: Double) -> [Action] {
        guard !isStopped else { return [.wake(nil)] }
        let publish: [Action] = inFlight ? [] : [.publish]
        inFlight = true
        return publish + [.wake(now + Defaults.interval)]
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
