/// One planned wheel move between two positions, easing out; a retarget follows a ``Glide`` instead.
public struct WheelAnimation: TileAnimation {
    public typealias State = WheelState

    let from: Double
    let final: WheelState
    public let duration: Double
    var glide: Glide? = nil

    public func state(at elapsed: Double) -> WheelState {
        if elapsed >= duration { return final }
        if let glide { return WheelState(position: glide.value(at: elapsed), count: final.count) }
        let progress = CubicBezier.easeOut(elapsed / duration)
        return WheelState(position: from + (final.position - from) * progress, count: final.count)
    }

    /// The position and its speed per second `elapsed` seconds in.
    func motion(at elapsed: Double) -> (position: Double, velocity: Double) {
        if let glide { return (glide.value(at: elapsed), glide.velocity(at: elapsed)) }
        guard elapsed < duration, duration > 0 else { return (final.position, 0) }
        let step = min(1e-3, duration / 1000)
        let before = state(at: max(0, elapsed - step)).position
        let after = state(at: min(elapsed + step, duration)).position
        return (state(at: elapsed).position, (after - before) / (min(elapsed + step, duration) - max(0, elapsed - step)))
    }
}
