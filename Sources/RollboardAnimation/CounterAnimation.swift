/// One planned count: value(t) = from + ease(t / duration) × (to − from), formatted every frame.
public struct CounterAnimation: TileAnimation {
    public typealias State = CounterState

    let from: Double
    let final: CounterState
    let easing: CounterEasing
    let format: NumberFormat
    let targetScaled: Int64
    public let duration: Double

    init(from start: CounterState, to end: CounterState, duration: Double, easing: CounterEasing, format: NumberFormat) {
        from = start.target
        final = end
        self.duration = duration
        self.easing = easing
        self.format = format
        targetScaled = format.restingScaled(end.target)
    }

    public func state(at elapsed: Double) -> CounterState {
        if elapsed >= duration { return final }
        let to = final.target
        let value = from + easing(elapsed / duration) * (to - from)
        let upward = to >= from
        let counted = format.countingScaled(value, upward: upward)
        let shown = upward ? min(counted, targetScaled) : max(counted, targetScaled)
        return CounterState(value: value, text: format.string(scaled: shown), target: to)
    }
}
