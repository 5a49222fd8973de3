/// One planned count: value(t) = from + ease(t / duration) × (to − from), formatted every frame; a retarget
/// follows a ``Glide`` instead of the easing.
public struct CounterAnimation: TileAnimation {
    public typealias State = CounterState

    let from: Double
    let final: CounterState
    let easing: CounterEasing
    let format: NumberFormat
    let targetScaled: Int64
    let glide: Glide?
    public let duration: Double

    init(
        from start: CounterState, to end: CounterState, duration: Double, easing: CounterEasing, format: NumberFormat,
        velocity: Double? = nil
    ) {
        from = start.value
        glide = velocity.map { Glide(from: start.value, velocity: $0, to: end.target, duration: duration) }
        final = end
        self.duration = duration
        self.easing = easing
        self.format = format
        targetScaled = format.restingScaled(end.target)
    }

    public func state(at elapsed: Double) -> CounterState {
        if elapsed >= duration { return final }
        let to = final.target
        let value = glide?.value(at: elapsed) ?? from + easing(elapsed / duration) * (to - from)
        let upward = to >= from
        if format.compact {
            let clamped = upward ? min(value, to) : max(value, to)
            return CounterState(value: value, text: format.compactString(clamped, rounding: upward ? .down : .up), target: to)
        }
        let counted = format.countingScaled(value, upward: upward)
        let shown = upward ? min(counted, targetScaled) : max(counted, targetScaled)
        return CounterState(value: value, text: format.string(scaled: shown), target: to)
    }

    /// The counted value and its speed per second `elapsed` seconds in.
    func motion(at elapsed: Double) -> (value: Double, velocity: Double) {
        if let glide { return (glide.value(at: elapsed), glide.velocity(at: elapsed)) }
        guard elapsed < duration, duration > 0 else { return (final.target, 0) }
        let step = min(1e-3, duration / 1000)
        let before = state(at: max(0, elapsed - step)).value
        let after = elapsed + step < duration ? state(at: elapsed + step).value : final.target
        return (state(at: elapsed).value, (after - before) / (min(elapsed + step, duration) - max(0, elapsed - step)))
    }
}
