package import RollboardConfig
package import RollboardCore
import RollboardNet
package import RollboardStore

/// A clock tile: the time and date in its dashboard's time zone, turning when the server's wall clock passes a whole
/// second (or minute), so every screen of every node turns together.
///
/// It has no value to wait for (never `null`, never stale) and nothing to queue; a calm screen sees the same turns,
/// which are jumps already.
struct ClockTile: WallClockTile {
    let tileID: String
    let face: ClockFace
    /// Wall-clock seconds since 1970 at hub time 0: the wall time at hub time t is t + wallOffset.
    var wallOffset: Double

    mutating func apply(_ change: TileChange, at time: Double) throws {}

    mutating func apply(viewerAction: CarouselViewerAction, page: Int?, at time: Double) {}

    func state(at time: Double) -> TileState? {
        TileState(members: face.members(wall: time + wallOffset).map { .init($0.name, JSONText.quoted($0.text)) })
    }

    /// The next whole second (or minute) of the wall clock after `time`, on the hub's clock.
    func nextMotion(after time: Double) -> Double? {
        let wall = time + wallOffset
        return ((wall / face.step).rounded(.down) + 1) * face.step - wallOffset
    }

    func calmState(at time: Double) -> TileState? {
        state(at: time)
    }

    func nextCalmMotion(after time: Double) -> Double? {
        nextMotion(after: time)
    }
}
