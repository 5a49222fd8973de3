package import RollboardStore

/// One tile's animation as one client sees it: it takes changes and tells its state at any time.
///
/// Animators are value types, so a new screen starts from a copy of the hub's reference and moves in step
/// with every other screen on the dashboard.
protocol LiveTile: Sendable {
    /// The id of the tile this tile drives.
    var tileID: String { get }

    /// Applies a producer's change that was committed at `time`.
    mutating func apply(_ change: TileChange, at time: Double) throws

    /// Applies a viewer's own action (only carousels take any); returns the page-change event, if any.
    mutating func apply(viewerAction: CarouselViewerAction, page: Int?, at time: Double)

    /// The tile's wire state at `time`; `nil` while it has no value.
    func state(at time: Double) -> TileState?

    /// The earliest time at or after `time` when the state can change without a new change arriving;
    /// `nil` when the tile is at rest until the next change.
    func nextMotion(after time: Double) -> Double?

    /// What a calm screen (reduced motion) shows at `time`: the state where the changes under way end, so a change is
    /// one jump.
    func calmState(at time: Double) -> TileState?

    /// The earliest time at or after `time` when ``calmState(at:)`` can change without a new change arriving; `nil`
    /// until the next change.
    func nextCalmMotion(after time: Double) -> Double?

    /// How many changes are queued and not yet finished at `time`, the one playing included.
    func pendingChanges(at time: Double) -> Int
}

extension LiveTile {
    /// Tiles without an animation queue have nothing waiting.
    func pendingChanges(at time: Double) -> Int { 0 }

    /// The tile's full wire state at `time` as JSON (`null` without a value).
    func encodedState(at time: Double) -> String {
        TileState.fullJSON(state(at: time))
    }
}
