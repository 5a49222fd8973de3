import RollboardAnimation
package import RollboardConfig
package import RollboardStore

/// A live tile whose changes play through an `AnimationQueue` (odometer, counter, wheel).
protocol QueuedTile: LiveTile {
    associatedtype Animator: TileAnimator
    var queue: AnimationQueue<Animator> { get }
}

extension QueuedTile {
    /// Queued tiles take no viewer actions.
    mutating func apply(viewerAction: CarouselViewerAction, page: Int?, at time: Double) {}

    /// `"behind":true` while the newest value is further than the lag bound from being shown (only possible for a
    /// tile without `maxLag`, whose mark then uses ``unboundedLagMark``), else nothing.
    func behindMembers(at time: Double) -> [TileState.Member] {
        queue.restTime - time > (queue.maxLag ?? unboundedLagMark) + 1e-9 ? [TileState.Member("behind", "true")] : []
    }

    /// How far behind a tile without `maxLag` may be before it is marked: twice the default odometer `maxDuration`.
    var unboundedLagMark: Double { 2 * OdometerOptions.defaultMaxDuration }

    /// Where the last queued change ends.
    func calmState(at time: Double) -> TileState? {
        state(at: max(time, queue.restTime))
    }

    /// Calm tiles change only when a change arrives.
    func nextCalmMotion(after time: Double) -> Double? {
        nil
    }

    func pendingChanges(at time: Double) -> Int {
        queue.pendingCount(at: time)
    }

    /// Moving until the last queued change ends, then at rest.
    func nextMotion(after time: Double) -> Double? {
        queue.isAtRest(at: time) ? nil : time
    }
}
