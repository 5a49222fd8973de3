package import RollboardAccess
package import RollboardConfig
package import RollboardMetrics
package import RollboardStore

/// The wall clock as the hub's tiles read it: each ``WallClockTile`` keeps the offset it was built with until the wall
/// clock moves away from it (the system clock stepped), then takes the new one, in the hub's tiles and every screen's
/// own copies, so a clock turns to the right second and a window resets at the real midnight again.
extension HubStateMachine {
    /// How far the wall clock may stand from a tile's offset before the tile takes the new one: above the skew of
    /// reading two clocks back to back, below what a clock tile's second would show.
    static let wallClockTolerance = 0.2

    /// Gives every wall-clock tile `offset` (wall-clock seconds since 1970 at hub time 0, read just now, at hub time
    /// `now`) when its own is further from it than ``wallClockTolerance``; a windowed tile reads its window again.
    mutating func wallClockRead(offset: Double, now: Double) -> [HubAction] {
        var actions: [HubAction] = []
        for index in tiles.indices {
            guard var tile = tiles[index] as? any WallClockTile,
                abs(tile.wallOffset - offset) > Self.wallClockTolerance
            else { continue }
            do {
                try tile.take(wallOffset: offset, at: now)
            } catch {
                actions.append(.changeRefused(tile: tileIDs[index], reason: "\(error)"))
            }
            tiles[index] = tile
            if tile is any WindowedLiveTile {
                lastChangeAt = max(lastChangeAt, now)
                changeCount += 1
            }
            for id in sessions.keys.sorted() {
                guard var own = sessions[id]?.ownTiles[index]?.tile as? any WallClockTile else { continue }
                try? own.take(wallOffset: offset, at: now)
                sessions[id]!.ownTiles[index]!.tile = own
            }
        }
        return actions
    }
}
