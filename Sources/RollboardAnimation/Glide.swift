/// A smooth move of one number to a value where it stops, starting from wherever it is and at whatever speed it
/// already moves (a retarget): a cubic Hermite curve whose start slope is clamped so that it never passes its end and
/// never turns back on the way.
///
/// With s = elapsed / duration and m the start slope in units of (to − from) / duration, clamped to [0, 3]:
/// `value = from + (to − from) × (m (s³ − 2s² + s) + 3s² − 2s³)`. m = 0 (from rest, or moving away from the end)
/// eases in and out; m = 3 is the cubic ease-out 1 − (1 − s)³. Every m in [0, 3] is monotonic.
public struct Glide: Hashable, Sendable {
    /// Where the move starts.
    public let from: Double
    /// Where it stops.
    public let to: Double
    /// Seconds from start to stop.
    public let duration: Double
    /// The start slope m, in [0, 3].
    public let slope: Double

    /// Plans a glide from `from`, moving at `velocity` units per second, to `to` in `duration` seconds.
    public init(from: Double, velocity: Double, to: Double, duration: Double) {
        self.from = from
        self.to = to
        self.duration = max(0, duration)
        let distance = to - from
        slope = duration > 0 && distance != 0 && velocity.isFinite ? min(max(velocity * duration / distance, 0), 3) : 0
    }

    /// The value `elapsed` seconds in; `to` at or after ``duration``.
    public func value(at elapsed: Double) -> Double {
        guard elapsed < duration else { return to }
        let s = max(0, elapsed / duration)
        let shape = slope * (s * s * s - 2 * s * s + s) + 3 * s * s - 2 * s * s * s
        return from + (to - from) * shape
    }

    /// The speed in units per second `elapsed` seconds in; 0 at or after ``duration``.
    public func velocity(at elapsed: Double) -> Double {
        guard elapsed < duration, duration > 0 else { return 0 }
        let s = max(0, elapsed / duration)
        let shape = slope * (3 * s * s - 4 * s + 1) + 6 * s - 6 * s * s
        return (to - from) * shape / duration
    }
}
