package import RollboardAccess
import RollboardAnimation
package import RollboardConfig
package import RollboardCore
import RollboardNet
package import RollboardStore

/// The animator of a ``NumberTile``: made from its tile's configuration, its states head for a number (`target`), and
/// it writes a state as what a screen is sent.
protocol NumberTileAnimator: TileAnimator where Value == Double {
    associatedtype Configuration
    init(configuration: Configuration) throws(AnimationError)
    /// The value `state` heads for.
    func target(of state: State) -> Double
    /// `state` as a screen is sent it, its own members first, then `trailing` (lag and indicator members).
    func tileState(_ state: State, then trailing: [TileState.Member]) -> TileState
}

extension Counter: NumberTileAnimator {
    func target(of state: CounterState) -> Double { state.target }

    /// The text, then the target.
    func tileState(_ state: CounterState, then trailing: [TileState.Member]) -> TileState {
        let members = [
            TileState.Member("text", JSONText.quoted(state.text)),
            TileState.Member("target", jsonNumber(state.target, places: 6)),
        ]
        return TileState(members: members + trailing)
    }
}

extension Odometer: NumberTileAnimator {
    func target(of state: OdometerState) -> Double { state.target }

    /// The columns in thousandths of a digit; the width while it changes, the unit in compact notation, the sign and
    /// the target.
    func tileState(_ state: OdometerState, then trailing: [TileState.Member]) -> TileState {
        var members: [TileState.Member] = []
        if state.width != Double(state.digits.count) { members.append(.init("width", jsonNumber(state.width))) }
        if configuration.compact { members.append(.init("unit", jsonNumber(state.unit))) }
        members.append(.init("negative", "\(state.negative)"))
        members.append(.init("target", jsonNumber(state.target, places: 6)))
        return TileState(
            columns: state.digits.map { TileState.thousandths($0, modulo: 10_000) }, members: members + trailing)
    }
}
