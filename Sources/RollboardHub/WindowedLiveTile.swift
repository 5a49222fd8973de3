package import RollboardStore

/// A live tile that also changes with time by itself, not only with changes: a number tile's `window` resets at
/// midnight, and changes age out of a `last …` window. The hub reads ``windowDue`` to arm its timer and calls
/// ``advanceWindow(at:)`` when it is due (see `HubStateMachine+Windows.swift`).
protocol WindowedLiveTile: LiveTile {
    /// When, on the hub's clock, the tile must be advanced next; `nil` when only a change can change it.
    var windowDue: Double? { get }

    /// Brings the tile to `time`: a window that reset or lost a change shows its new number from `time` on.
    mutating func advanceWindow(at time: Double) throws
}
