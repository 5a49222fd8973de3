import RollboardAnimation
package import RollboardConfig
package import RollboardCore
import RollboardNet
package import RollboardStore

extension Gauge: NumberTileAnimator {
    func target(of state: CounterState) -> Double { state.target }

    /// The needle's place `f` in ten-thousandths of the dial (0 at min, 10000 at max), then the counter's text and
    /// target.
    func tileState(_ state: CounterState, then trailing: [TileState.Member]) -> TileState {
        let members = [
            TileState.Member("f", String(Int((fraction(of: state) * 10_000).rounded()))),
            TileState.Member("text", JSONText.quoted(state.text)),
            TileState.Member("target", jsonNumber(state.target, places: 6)),
        ]
        return TileState(members: members + trailing)
    }
}

/// A gauge tile: a needle or bar easing over a dial, with the value written under it.
typealias GaugeTile = NumberTile<Gauge>
