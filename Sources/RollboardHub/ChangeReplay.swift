package import RollboardConfig
package import RollboardStore

/// The latest stored changes a hub's tiles took, each with the tile as it was just before it, so that a screen that
/// comes back can be shown exactly what it missed: the tile as it stood, then the missed changes under its own queue
/// policy. Bounded: the oldest changes go first, and a screen that missed more than the replay holds gets a full state.
struct ChangeReplay {
    /// One stored change to one tile.
    struct Entry {
        let seq: UInt64
        let tileIndex: Int
        /// The tile just before the change.
        let before: any LiveTile
        let change: TileChange
    }

    /// Most changes kept.
    let limit: Int
    /// The store's sequence number up to which the replay knows nothing: every change after it is in `entries`.
    private(set) var from: UInt64
    private(set) var entries: [Entry] = []

    init(from seq: UInt64, limit: Int = 512) {
        self.from = seq
        self.limit = limit
    }

    /// Keeps `change` (stored as `seq`) to tile `tileIndex`, which was `before` it.
    mutating func record(seq: UInt64, tileIndex: Int, before: any LiveTile, change: TileChange) {
        entries.append(Entry(seq: seq, tileIndex: tileIndex, before: before, change: change))
        if entries.count > limit {
            let dropped = entries.count - limit
            from = entries[dropped - 1].seq
            entries.removeFirst(dropped)
        }
    }

    /// The changes after `seq`, oldest first; `nil` when the replay does not reach back that far.
    func changes(after seq: UInt64) -> [Entry]? {
        guard seq >= from else { return nil }
        return entries.filter { $0.seq > seq }
    }
}
