/// A wheel over a list of strings (WheelView), driven by a progress in [0, 1] or an index; its
/// value is a position in [0, count − 1], and moves between positions ease out.
public struct Wheel: TileAnimator {
    public typealias Value = Double
    public typealias State = WheelState
    public typealias Animation = WheelAnimation

    /// The strings the wheel shows; at least one.
    public let contents: [String]
    /// Seconds a move takes unless the change gives its own interval.
    public let duration: Double

    /// Seconds a move takes by default: the server's wheel tiles and `simulate wheel` too.
    public static let defaultDuration = 0.5

    /// Creates a wheel; throws ``AnimationError/invalidConfiguration`` for empty contents or a
    /// negative or non-finite duration.
    public init(contents: [String], duration: Double = defaultDuration) throws(AnimationError) {
        guard !contents.isEmpty else {
            throw AnimationError(.invalidConfiguration, "a wheel needs at least one string")
        }
        guard duration.isFinite && duration >= 0 else {
            throw AnimationError(.invalidConfiguration, "wheel duration must be a finite number of seconds, not \(duration)")
        }
        self.contents = contents
        self.duration = duration
    }

    /// The whole position for `progress` (clamped to [0, 1]): the label whose band of progress holds it,
    /// ⌊min(count × progress, count − 1)⌋, so the wheel always rests on one whole label (the article's top label).
    public func position(forProgress progress: Double) throws(AnimationError) -> Double {
        guard progress.isFinite else {
            throw AnimationError(.notFinite, "wheel progress \(progress) is not a finite number")
        }
        let count = Double(contents.count)
        return min(max(0, count * min(max(progress, 0), 1)), count - 1).rounded(.down)
    }

    /// The position that shows `label` alone, or `nil` when the wheel has no such label.
    public func position(forLabel label: String) -> Double? {
        contents.firstIndex(of: label).map(Double.init)
    }

    /// The position that shows `contents[index]` alone.
    public func position(forIndex index: Int) throws(AnimationError) -> Double {
        guard contents.indices.contains(index) else {
            throw AnimationError(.outOfRange, "wheel index \(index) is not in 0…\(contents.count - 1)")
        }
        return Double(index)
    }

    /// The resting state at `position`, which must lie in [0, count − 1].
    public func settle(_ position: Double, after previous: WheelState?) throws(AnimationError) -> WheelState {
        guard position.isFinite else {
            throw AnimationError(.notFinite, "wheel position \(position) is not a finite number")
        }
        guard position >= 0 && position <= Double(contents.count - 1) else {
            throw AnimationError(.outOfRange, "wheel position \(position) is not in 0…\(contents.count - 1)")
        }
        return WheelState(position: position, count: contents.count)
    }

    public func animation(from start: WheelState, to end: WheelState, interval: Double?) -> WheelAnimation {
        WheelAnimation(from: start.position, final: end, duration: interval ?? duration)
    }

    /// A glide from where `running` is (or from rest on `start`) to `end`, over `interval` or the wheel's duration.
    public func retarget(
        from start: WheelState, running: (animation: WheelAnimation, elapsed: Double)?, to end: WheelState,
        interval: Double?
    ) -> WheelAnimation {
        let duration = interval ?? self.duration
        let motion = running.map { $0.animation.motion(at: $0.elapsed) } ?? (position: start.position, velocity: 0)
        return WheelAnimation(
            from: motion.position, final: end, duration: duration,
            glide: Glide(from: motion.position, velocity: motion.velocity, to: end.position, duration: duration))
    }
}
