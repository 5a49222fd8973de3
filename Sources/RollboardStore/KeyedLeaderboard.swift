package import RollboardCore
package import RollboardConfig

/// A board committed by a request with an `Idempotency-Key`, in the encoding of kind 14: what kind 11 writes for a
/// ``StoredLeaderboard``, then `requestKey | request` (each string `UInt32` length and UTF-8). Boards without a key
/// keep kind 11, so journals written before keyed boards load unchanged.
struct KeyedLeaderboard: ExtendingPart {
    var base: StoredLeaderboard

    init(_ board: StoredLeaderboard) {
        base = board
    }

    func encode(into writer: inout BinaryWriter) {
        base.encode(into: &writer)
        writer.write(base.requestKey ?? "")
        writer.write(base.request ?? "")
    }

    init?(reader: inout BinaryReader) {
        guard var board = StoredLeaderboard(reader: &reader), let key = reader.readString(), !key.isEmpty,
            let request = reader.readString()
        else { return nil }
        board.requestKey = key
        board.request = request
        base = board
    }
}
