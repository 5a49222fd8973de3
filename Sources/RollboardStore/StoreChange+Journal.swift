package import RollboardCore
package import RollboardConfig

/// The one codec of a change: how the journal (and, inside its entries, the Redis stream) holds it.
///
/// On disk a record is framed as `length: UInt32 LE | crc32(payload): UInt32 LE | payload`, where the payload
/// starts with the kind byte of ``StoreChange/kinds``: 1 = metric batch (`count: UInt32`, then each metric as
/// `StoredMetric.encode(into:)` writes it), 2 = wheel target (`StoredWheel`), 3 = a text tile's message
/// (`StoredText`), 4 = a carousel's slides (`StoredSlides`), 5 = a producer's carousel command
/// (`StoredCarouselCommand`), 6 = an operator's playlist command (`StoredPlaylistCommand`), 7 = an operator's command
/// to screens (`StoredScreenCommand`), 8 = a viewer key created or revoked (`StoredViewerKey`), 9 = a metric batch with
/// increments or idempotency keys (`count: UInt32`, then each metric as `ExtendedMetric` writes it), 11 = a
/// leaderboard's whole board (`StoredLeaderboard`), 13 = a source's health (`StoredSourceHealth`), 15 = a screen's
/// assignment (`StoredScreenCommand`, action 5), 16 = a reload or identify of the screens of a name
/// (`StoredScreenCommand`, actions 6 and 7); then the one part,
/// as its `encode(into:)` writes it.
/// Strings are `byte count: UInt32 LE | UTF-8`.
extension StoreChange {
    /// Bytes of the frame header (length and CRC).
    static let frameHeaderSize = 8
    /// Largest payload accepted when reading; anything larger is damage.
    static let maximumPayloadSize = 64 << 20

    /// The framed bytes of this record.
    var framed: [UInt8] {
        Self.frame(payload)
    }

    /// The kind byte, then the batch's count (at least 1) and each part, or the one part.
    package var payload: [UInt8] {
        let (kind, parts) = kindAndParts
        var writer = BinaryWriter()
        writer.write(kind.tag)
        if kind.isBatch { writer.write(UInt32(parts.count)) }
        for part in parts { part.encode(into: &writer) }
        return writer.bytes
    }

    /// `payload` with its length and CRC in front.
    static func frame(_ payload: [UInt8]) -> [UInt8] {
        var writer = BinaryWriter()
        writer.write(UInt32(payload.count))
        writer.write(CRC32.checksum(payload))
        writer.write(raw: payload)
        return writer.bytes
    }

    /// The kind byte that starts `payload` when this version knows no kind with it (a change a newer version wrote, read
    /// during a rolling upgrade); `nil` for a kind it knows, or an empty payload.
    package static func unknownKind(ofPayload payload: ArraySlice<UInt8>) -> UInt8? {
        guard let tag = payload.first, !kinds.contains(where: { $0.tag == tag }) else { return nil }
        return tag
    }

    /// Decodes a payload whose CRC matched; `nil` if it is not a well-formed record.
    package init?(payload: ArraySlice<UInt8>) {
        var reader = BinaryReader(payload)
        guard let tag = reader.read(UInt8.self), let kind = Self.kinds.first(where: { $0.tag == tag }) else { return nil }
        var count: UInt32 = 1
        if kind.isBatch {
            guard let batch = reader.read(UInt32.self), batch > 0 else { return nil }
            count = batch
        }
        var parts: [any StoredChangePart] = []
        for _ in 0..<count {
            guard let part = kind.readPart(&reader) else { return nil }
            parts.append(part)
        }
        guard reader.isAtEnd, let change = kind.change(parts) else { return nil }
        self = change
    }
}
