/// A kind of tile (odometer, counter, wheel) that ``AnimationQueue`` can schedule changes for.
///
/// An animator is a pure description: it turns values into resting states and plans the animation
/// between two resting states. It keeps no time and no history; the queue does.
public protocol TileAnimator: Sendable {
    /// What producers post.
    associatedtype Value: Sendable
    /// What a frame shows; also used as the resting state that animations start from and end at.
    associatedtype State: Equatable & Sendable
    /// The planned change between two resting states.
    associatedtype Animation: TileAnimation<State>

    /// The resting state showing `value`, following the resting state `previous` (nil for the first
    /// value); throws when the tile cannot show `value`.
    func settle(_ value: Value, after previous: State?) throws(AnimationError) -> State

    /// Plans the change from `start` to `end`, both results of ``settle(_:after:)``; `interval` is
    /// the requested length in seconds, or nil for the tile's own timing.
    func animation(from start: State, to end: State, interval: Double?) -> Animation

    /// Plans a change to `end` that moves on, without stopping, from what `running` shows `elapsed` seconds in (a
    /// retarget), or from rest on `start` when nothing runs; `interval` as in ``animation(from:to:interval:)``.
    func retarget(
        from start: State, running: (animation: Animation, elapsed: Double)?, to end: State, interval: Double?
    ) -> Animation
}
