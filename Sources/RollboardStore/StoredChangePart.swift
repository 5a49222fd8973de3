package import RollboardConfig

/// One part of a ``StoreChange`` (a metric of a batch, or the one wheel target, text, slides, command or viewer key
/// of any other kind): numbered in the change log's sequence, committed at a moment, and written by its own codec
/// (the journal, the Redis stream and the snapshot all use it).
protocol StoredChangePart: Sendable, Equatable {
    /// Position in the change log's sequence.
    var seq: UInt64 { get set }
    /// When the part was committed, in seconds since 1970-01-01 UTC.
    var updatedAt: Double { get set }

    func encode(into writer: inout BinaryWriter)
    /// Reads what `encode(into:)` wrote; `nil` when it is not well formed.
    init?(reader: inout BinaryReader)
}

extension BinaryWriter {
    /// `count: UInt32`, then each part.
    mutating func write<Part: StoredChangePart>(parts: some Collection<Part>) {
        write(UInt32(parts.count))
        for part in parts { part.encode(into: &self) }
    }
}

extension BinaryReader {
    /// What `write(parts:)` wrote: `nil` when a part is not well formed or the count is outside `counts`.
    mutating func readParts<Part: StoredChangePart>(
        _: Part.Type = Part.self, counts: ClosedRange<UInt32> = 0...UInt32.max
    ) -> [Part]? {
        guard let count = read(UInt32.self), counts.contains(count) else { return nil }
        var parts: [Part] = []
        for _ in 0..<count {
            guard let part = Part(reader: &self) else { return nil }
            parts.append(part)
        }
        return parts
    }
}
