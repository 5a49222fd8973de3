/// A value on a dial (an arc or a bar) between two ends: the needle eases from the old value to the new one while the
/// written value counts along.
///
/// The needle follows the counted value: at every instant it stands at ``GaugeScale/fraction(of:)`` of what a
/// ``Counter`` with the same duration and easing shows, so it eases as the count does, bends on a retarget as the
/// count does, and rests exactly on the posted value's place.
public struct Gauge: TileAnimator {
    public typealias Value = Double
    public typealias State = CounterState
    public typealias Animation = CounterAnimation

    /// Timing, format and dial.
    public let configuration: GaugeConfiguration
    /// The count the needle follows.
    public let counter: Counter

    /// Creates a gauge; throws ``AnimationError/invalidConfiguration`` for a bad duration.
    public init(configuration: GaugeConfiguration) throws(AnimationError) {
        counter = try Counter(configuration: configuration.counter)
        self.configuration = configuration
    }

    /// The resting state showing `value` (a value past either end of the dial is shown and pins the needle).
    public func settle(_ value: Double, after previous: CounterState?) throws(AnimationError) -> CounterState {
        try counter.settle(value, after: previous)
    }

    public func animation(from start: CounterState, to end: CounterState, interval: Double?) -> CounterAnimation {
        counter.animation(from: start, to: end, interval: interval)
    }

    public func retarget(
        from start: CounterState, running: (animation: CounterAnimation, elapsed: Double)?, to end: CounterState,
        interval: Double?
    ) -> CounterAnimation {
        counter.retarget(from: start, running: running, to: end, interval: interval)
    }

    /// Where the needle stands in `state`, from 0 (min) to 1 (max).
    public func fraction(of state: CounterState) -> Double {
        configuration.scale.fraction(of: state.value)
    }
}
