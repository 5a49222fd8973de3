/// One planned wheel move between two positions, easing out.
public struct WheelAnimation: TileAnimation {
    public typealias State = WheelState

    let from: Double
    let final: WheelState
    public let duration: Double

    public func state(at elapsed: Double) -> WheelState {
        if elapsed >= duration { return final }
        let progress = CubicBezier.easeOut(elapsed / duration)
        return WheelState(position: from + (final.position - from) * progress, count: final.count)
    }
}
