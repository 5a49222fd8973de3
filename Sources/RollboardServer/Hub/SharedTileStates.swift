/// The hub's reference tiles at one tick, each encoded at most once and shared by every session whose tile has
/// not diverged from the reference (all of them, until a viewer holds or moves their own carousel).
///
/// Confined to its hub's serial queue, for the length of one tick.
final class SharedTileStates {
    let tiles: [any LiveTile]
    let time: Double
    private var encoded: [String?]

    init(tiles: [any LiveTile], time: Double) {
        self.tiles = tiles
        self.time = time
        self.encoded = Array(repeating: nil, count: tiles.count)
    }

    /// The wire state of tile `index` at this tick's time.
    func state(_ index: Int) -> String {
        if let state = encoded[index] { return state }
        let state = tiles[index].encodedState(at: time)
        encoded[index] = state
        return state
    }
}

@available(*, unavailable)
extension SharedTileStates: Sendable {}
