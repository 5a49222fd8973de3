package import RollboardAccess
package import RollboardConfig
package import RollboardMetrics
package import RollboardStore

/// The tiles that change with time by themselves (``WindowedLiveTile``: a window resets at midnight, a change ages out
/// of a `last …` window): the hub wakes when the first is due (``windowWake``) and advances the due ones first thing
/// in each tick, in the hub's own tiles and in every screen's own copies, as a change every stream shows.
extension HubStateMachine {
    /// The indices of `tiles` that are windowed.
    static func windowedIndices(_ tiles: [any LiveTile]) -> [Int] {
        tiles.indices.filter { tiles[$0] is any WindowedLiveTile }
    }

    /// When the first windowed tile is due, on the hub's clock.
    var windowWake: Double? {
        windowedTiles.compactMap { (tiles[$0] as? any WindowedLiveTile)?.windowDue }.min()
    }

    /// Advances every windowed tile due at `now`.
    mutating func advanceWindows(now: Double) -> [HubAction] {
        var actions: [HubAction] = []
        for index in windowedTiles {
            guard var tile = tiles[index] as? any WindowedLiveTile, let due = tile.windowDue, due <= now else {
                continue
            }
            do {
                try tile.advanceWindow(at: now)
            } catch {
                actions.append(.changeRefused(tile: tileIDs[index], reason: "\(error)"))
            }
            tiles[index] = tile
            lastChangeAt = max(lastChangeAt, now)
            changeCount += 1
            for id in sessions.keys.sorted() {
                guard let own = sessions[id]?.ownTiles[index]?.tile else { continue }
                sessions[id]!.ownTiles[index]!.tile = Self.advanced(own, now: now)
            }
        }
        return actions
    }

    /// A screen's own copy of a tile, advanced when it is a windowed tile due at `now` (a window that reset or lost a
    /// change meanwhile, as after a replay); a failure is the hub's own tile's to report.
    static func advanced(_ tile: any LiveTile, now: Double) -> any LiveTile {
        guard var windowed = tile as? any WindowedLiveTile, let due = windowed.windowDue, due <= now else { return tile }
        try? windowed.advanceWindow(at: now)
        return windowed
    }
}
