package import Dispatch
package import Foundation

/// The time a service runs by, and the one timer it arms on that time: the node's monotonic clock (every screen of a
/// hub animates by it, so screens move in step), its wall clock (every node agrees on it), a manual clock in tests.
/// A node's pair of them is its ``NodeClock``.
package struct FrameClock: Sendable {
    /// The current time in seconds.
    package let now: @Sendable () -> Double
    /// A timer on this clock that runs its handler on `queue`.
    package let makeTimer: @Sendable (_ queue: DispatchQueue) -> any ClockTimer

    package init(now: @escaping @Sendable () -> Double, makeTimer: @escaping @Sendable (_ queue: DispatchQueue) -> any ClockTimer) {
        self.now = now
        self.makeTimer = makeTimer
    }

    /// The system's monotonic clock, counted from when the clock was made.
    package static func monotonic() -> FrameClock {
        let origin = DispatchTime.now().uptimeNanoseconds
        return FrameClock(
            now: { Double(DispatchTime.now().uptimeNanoseconds &- origin) / 1_000_000_000 },
            makeTimer: { queue in
                DispatchClockTimer(queue: queue) { time in
                    DispatchTime(uptimeNanoseconds: origin &+ UInt64(max(time, 0) * 1_000_000_000))
                }
            })
    }

    /// Seconds since 1970; its timer fires when that time comes, as measured on the monotonic clock from when it is
    /// armed.
    package static func wall() -> FrameClock {
        FrameClock(
            now: { Date().timeIntervalSince1970 },
            makeTimer: { queue in
                DispatchClockTimer(queue: queue) { time in .now() + max(time - Date().timeIntervalSince1970, 0) }
            })
    }
}
