import Dispatch
import RollboardTestSupport
import Synchronization

@testable import RollboardCore
@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardAccess
@testable import RollboardHub

/// A clock that stands still until the test moves it: its timers fire (on their queues) when ``advance(to:)``
/// reaches the time they are armed for, and the test can read what they are armed for. Arming a timer and a fired
/// handler's return are ``changes`` a test can wait on.
final class ManualClock: Sendable {
    private let state: Mutex<(now: Double, timers: [ManualTimer])>
    let changes: Changes
    /// Handlers fired and not yet returned.
    private let firing = FiringCount()

    init(at time: Double = 0, changes: Changes = Changes()) {
        state = Mutex((time, []))
        self.changes = changes
    }

    var now: Double { state.withLock { $0.now } }

    /// The clock services are given.
    var clock: FrameClock {
        FrameClock(
            now: { [self] in now },
            makeTimer: { [self] queue in
                let timer = ManualTimer(queue: queue, changes: changes, firing: firing)
                state.withLock { $0.timers.append(timer) }
                return timer
            })
    }

    /// What each timer made on this clock is armed for, in the order they were made (`nil`: disarmed).
    var armed: [Double?] {
        state.withLock { $0.timers.map(\.armedFor) }
    }

    /// Waits until `condition` holds, checked after each timer is armed and after each handler that fired has run.
    func wait(within seconds: Double = 10, until condition: () -> Bool) async -> Bool {
        await changes.wait(within: seconds, until: condition)
    }

    /// Waits until every handler fired so far has returned (and so has armed its timer again), then moves the clock
    /// to `time`: what a service does at one instant is done before the next instant comes.
    func advanceWhenSettled(to time: Double) async -> Bool {
        let settled = await changes.wait { firing.count.load(ordering: .acquiring) == 0 }
        advance(to: time)
        return settled
    }

    /// Sets the clock to `time`, earlier or later, and fires nothing: a wall clock stepped by an operator or NTP.
    func step(to time: Double) {
        state.withLock { $0.now = time }
    }

    /// Moves the clock to `time` and fires every timer armed for then or earlier.
    func advance(to time: Double) {
        let timers = state.withLock { state in
            state.now = max(state.now, time)
            return state.timers
        }
        for timer in timers { timer.fire(ifDueAt: time) }
    }
}

/// A timer of a ``ManualClock``.
final class ManualTimer: ClockTimer {
    private let queue: DispatchQueue
    private let changes: Changes
    private let firing: FiringCount?
    private let state = Mutex<(armedFor: Double?, handler: (@Sendable () -> Void)?)>((nil, nil))

    init(queue: DispatchQueue, changes: Changes, firing: FiringCount? = nil) {
        self.queue = queue
        self.changes = changes
        self.firing = firing
    }

    var armedFor: Double? { state.withLock { $0.armedFor } }

    func activate(_ handler: @escaping @Sendable () -> Void) { state.withLock { $0.handler = handler } }
    func arm(at time: Double?) {
        state.withLock { $0.armedFor = time }
        changes.changed()
    }

    func cancel() { state.withLock { $0 = (nil, nil) } }

    /// Runs the handler on the timer's queue if the timer is armed for `time` or earlier (it is then disarmed), and
    /// tells the clock's ``Changes`` once it has run.
    func fire(ifDueAt time: Double) {
        let handler: (@Sendable () -> Void)? = state.withLock { state in
            guard let armed = state.armedFor, armed <= time else { return nil }
            state.armedFor = nil
            return state.handler
        }
        guard let handler else { return }
        firing?.count.add(1, ordering: .releasing)
        queue.async { [changes, firing] in
            handler()
            firing?.count.subtract(1, ordering: .releasing)
            changes.changed()
        }
    }
}

/// How many handlers of a ``ManualClock``'s timers have fired and not yet returned.
final class FiringCount: Sendable {
    let count = Atomic<Int>(0)
}
