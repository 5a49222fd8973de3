public import RollboardAnimation
package import RollboardConfig

/// A leaderboard's latest durable board: every entry, whole. An increment is resolved into the board it leaves
/// before it is committed (see `LeaderboardEdit`), so the journal, the Redis stream and the latest-values hash all
/// hold whole boards and a node catching up from any of them has the same totals.
public struct StoredLeaderboard: StoredChangePart {
    public var id: String
    /// In no particular order; names are unique.
    public var entries: [LeaderboardEntry]
    public var seq: UInt64
    /// Seconds since 1970-01-01 UTC.
    public var updatedAt: Double
    /// The producer's `Idempotency-Key`, remembered for a day with this board as its answer.
    public var requestKey: String? = nil
    /// What the keyed request asked (``LeaderboardEdit/fingerprint(of:)``): a retry with the same key must ask the
    /// same to be answered with this board.
    public var request: String? = nil
}

extension StoredLeaderboard {
    /// The board without the request that committed it: what a leaderboard holds (the request is the idempotency
    /// memory's).
    package var withoutRequest: StoredLeaderboard {
        var board = self
        board.requestKey = nil
        board.request = nil
        return board
    }

    /// `seq: UInt64 | id | count: UInt32 | per entry: name, value: Float64 | updatedAt: Float64`, entries sorted by
    /// name so equal boards encode alike.
    func encode(into writer: inout BinaryWriter) {
        writer.write(seq)
        writer.write(id)
        writer.write(UInt32(entries.count))
        for entry in entries.sorted(by: { $0.name.unicodeScalars.lexicographicallyPrecedes($1.name.unicodeScalars) }) {
            writer.write(entry.name)
            writer.write(entry.value)
        }
        writer.write(updatedAt)
    }

    init?(reader: inout BinaryReader) {
        guard let seq = reader.read(UInt64.self), let id = reader.readString(), let count = reader.read(UInt32.self)
        else { return nil }
        var entries: [LeaderboardEntry] = []
        var names = Set<String>()
        for _ in 0..<count {
            guard let name = reader.readString(), let value = reader.readDouble(), value.isFinite,
                names.insert(name).inserted
            else { return nil }
            entries.append(LeaderboardEntry(name: name, value: value))
        }
        guard let updatedAt = reader.readDouble() else { return nil }
        self.init(id: id, entries: entries, seq: seq, updatedAt: updatedAt)
    }
}
