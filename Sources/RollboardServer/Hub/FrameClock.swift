import Dispatch

/// The time every screen of a hub animates by: seconds on a monotonic clock, shared so screens move in step.
struct FrameClock: Sendable {
    /// The current time in seconds.
    let now: @Sendable () -> Double

    /// The system's monotonic clock, counted from when the clock was made.
    static func monotonic() -> FrameClock {
        let origin = DispatchTime.now().uptimeNanoseconds
        return FrameClock { Double(DispatchTime.now().uptimeNanoseconds &- origin) / 1_000_000_000 }
    }
}
