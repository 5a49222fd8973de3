/// One planned change of a tile, from one resting state to the next, as a function of time.
public protocol TileAnimation<State>: Sendable {
    /// What a frame shows.
    associatedtype State
    /// Seconds from the start until every part of the animation has finished; finite, zero or more.
    var duration: Double { get }
    /// The state `elapsed` seconds after the start; at or after ``duration`` the final resting state.
    func state(at elapsed: Double) -> State
}
