import RollboardAnimation

/// A live tile whose changes play through an `AnimationQueue` (odometer, counter, wheel).
protocol QueuedTile: LiveTile {
    associatedtype Animator: TileAnimator
    var queue: AnimationQueue<Animator> { get }
}

extension QueuedTile {
    /// Queued tiles take no viewer actions.
    mutating func apply(viewerAction: CarouselViewerAction, page: Int?, at time: Double) {}

    /// Moving until the last queued change ends, then at rest.
    func nextMotion(after time: Double) -> Double? {
        queue.isAtRest(at: time) ? nil : time
    }
}
