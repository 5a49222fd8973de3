/// One planned chart move from a resting state to the next, over `duration` with progress e = ease(t / duration):
///
/// - the path slides `steps` buckets to the left: shift(t) = steps × e (the points leaving on the left are kept in the
///   values until the move ends);
/// - the newest point follows the value: last(t) = from + e × (to − from), from the newest value shown before (it
///   appears at once when there was none);
/// - the range eases to the new extent: low(t) = low₀ + e × (low₁ − low₀), the same for high.
///
/// At its end it is exactly the final resting state.
public struct ChartAnimation: TileAnimation {
    public typealias State = ChartState

    /// The resting state it ends on.
    public let final: ChartState
    /// The points drawn while it runs: the ones leaving on the left, then the final ones.
    let values: [Double?]
    let steps: Int
    let lastFrom: Double?
    let lowFrom: Double
    let highFrom: Double
    let easing: CounterEasing
    public let duration: Double

    /// A move from the resting state `start` to the resting state `end`; `shown` is what the screen shows when it
    /// begins (the range and newest value glide on from it), `start` itself when nothing ran.
    init(from start: ChartState, shown: ChartState, to end: ChartState, duration: Double, easing: CounterEasing) {
        let count = end.values.count
        steps = Int(min(max(end.newest - start.newest, 0), Int64(count)))
        values = Array(start.values.prefix(steps)) + end.values
        lastFrom = shown.last
        lowFrom = shown.low
        highFrom = shown.high
        final = end
        self.easing = easing
        self.duration = duration
    }

    public func state(at elapsed: Double) -> ChartState {
        if elapsed >= duration { return final }
        let progress = easing(elapsed / duration)
        var shown = values
        if let to = final.last, let from = lastFrom { shown[shown.count - 1] = from + progress * (to - from) }
        return ChartState(
            values: shown, shift: Double(steps) * progress, low: lowFrom + progress * (final.low - lowFrom),
            high: highFrom + progress * (final.high - highFrom), newest: final.newest)
    }
}
