/// A number that counts from its old to its new value (QCountingLabel, FlickerNumber), shown as
/// formatted text.
public struct Counter: TileAnimator {
    public typealias Value = Double
    public typealias State = CounterState
    public typealias Animation = CounterAnimation

    /// Duration, easing and format.
    public let configuration: CounterConfiguration

    /// Creates a counter; throws ``AnimationError/invalidConfiguration`` for a bad duration.
    public init(configuration: CounterConfiguration) throws(AnimationError) {
        try configuration.validate()
        self.configuration = configuration
    }

    /// The resting state showing `value`; throws ``AnimationError/notFinite`` for NaN and
    /// infinities and ``AnimationError/outOfRange`` when the value is too large to format exactly.
    public func settle(_ value: Double, after previous: CounterState?) throws(AnimationError) -> CounterState {
        guard value.isFinite else {
            throw AnimationError(.notFinite, "counter value \(value) is not a finite number")
        }
        guard abs(value * configuration.format.scale) < NumberFormat.largestScaled else {
            throw AnimationError(.outOfRange, "counter value \(value) is too large to show with \(configuration.format.fractionDigits) decimal places")
        }
        return CounterState(value: value, text: configuration.format.string(for: value), target: value)
    }

    /// Plans a count over `interval` seconds, or the configured duration when nil; never shorter
    /// than ``CounterConfiguration/minimumDuration``.
    public func animation(from start: CounterState, to end: CounterState, interval: Double?) -> CounterAnimation {
        let duration = max(interval ?? configuration.duration, CounterConfiguration.minimumDuration)
        return CounterAnimation(from: start, to: end, duration: duration, easing: configuration.easing, format: configuration.format)
    }

    /// A glide from the value `running` has reached (or from rest on `start`) to `end`, over `interval` or the
    /// configured duration.
    public func retarget(
        from start: CounterState, running: (animation: CounterAnimation, elapsed: Double)?, to end: CounterState,
        interval: Double?
    ) -> CounterAnimation {
        let duration = max(interval ?? configuration.duration, CounterConfiguration.minimumDuration)
        let motion = running.map { $0.animation.motion(at: $0.elapsed) } ?? (value: start.value, velocity: 0)
        let origin = CounterState(value: motion.value, text: start.text, target: start.target)
        return CounterAnimation(
            from: origin, to: end, duration: duration, easing: configuration.easing, format: configuration.format,
            velocity: motion.velocity)
    }
}
