/// The one codec of a change: how the journal (and, inside its entries, the Redis stream) holds it.
///
/// On disk a record is framed as `length: UInt32 LE | crc32(payload): UInt32 LE | payload`, where the payload
/// starts with a kind byte: 1 = metric batch (`count: UInt32`, then per metric `seq: UInt64, id, value: Float64,
/// updatedAt: Float64, interval: Float64 (NaN = none), animated: UInt8`), 2 = wheel target (`seq, id,
/// target kind: UInt8 (0 progress, 1 index), progress: Float64 or index: Int64, updatedAt`), 3 = a text tile's
/// message (see `StoredText.encode(into:)`), 4 = a carousel's slides (see `StoredSlides.encode(into:)`), 5 = a
/// producer's carousel command (see `StoredCarouselCommand.encode(into:)`), 6 = an operator's playlist command (see
/// `StoredPlaylistCommand.encode(into:)`), 7 = an operator's command to screens (see
/// `StoredScreenCommand.encode(into:)`), 8 = a viewer key created or revoked (see `StoredViewerKey.encode(into:)`).
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

    var payload: [UInt8] {
        var writer = BinaryWriter()
        switch self {
        case .metrics(let metrics):
            writer.write(UInt8(1))
            writer.write(UInt32(metrics.count))
            for metric in metrics {
                writer.write(metric.seq)
                writer.write(metric.id)
                writer.write(metric.value)
                writer.write(metric.updatedAt)
                writer.write(optional: metric.interval)
                writer.write(UInt8(metric.animated ? 1 : 0))
            }
        case .wheel(let wheel):
            writer.write(UInt8(2))
            wheel.encode(into: &writer)
        case .text(let text):
            writer.write(UInt8(3))
            text.encode(into: &writer)
        case .slides(let slides):
            writer.write(UInt8(4))
            slides.encode(into: &writer)
        case .carousel(let command):
            writer.write(UInt8(5))
            command.encode(into: &writer)
        case .playlist(let command):
            writer.write(UInt8(6))
            command.encode(into: &writer)
        case .screens(let command):
            writer.write(UInt8(7))
            command.encode(into: &writer)
        case .viewerKey(let change):
            writer.write(UInt8(8))
            change.encode(into: &writer)
        }
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

    /// Decodes a payload whose CRC matched; `nil` if it is not a well-formed record.
    init?(payload: ArraySlice<UInt8>) {
        var reader = BinaryReader(payload)
        switch reader.read(UInt8.self) {
        case 1:
            guard let count = reader.read(UInt32.self), count > 0 else { return nil }
            var metrics: [StoredMetric] = []
            for _ in 0..<count {
                guard let seq = reader.read(UInt64.self), let id = reader.readString(),
                    let value = reader.readDouble(), let updatedAt = reader.readDouble(),
                    let interval = reader.readOptionalDouble(), let animated = reader.read(UInt8.self)
                else { return nil }
                metrics.append(
                    StoredMetric(
                        id: id, value: value, seq: seq, updatedAt: updatedAt, interval: interval,
                        animated: animated != 0)
                )
            }
            self = .metrics(metrics)
        case 2:
            guard let wheel = StoredWheel(reader: &reader) else { return nil }
            self = .wheel(wheel)
        case 3:
            guard let text = StoredText(reader: &reader) else { return nil }
            self = .text(text)
        case 4:
            guard let slides = StoredSlides(reader: &reader) else { return nil }
            self = .slides(slides)
        case 5:
            guard let command = StoredCarouselCommand(reader: &reader) else { return nil }
            self = .carousel(command)
        case 6:
            guard let command = StoredPlaylistCommand(reader: &reader) else { return nil }
            self = .playlist(command)
        case 7:
            guard let command = StoredScreenCommand(reader: &reader) else { return nil }
            self = .screens(command)
        case 8:
            guard let change = StoredViewerKey(reader: &reader) else { return nil }
            self = .viewerKey(change)
        default:
            return nil
        }
        guard reader.isAtEnd else { return nil }
    }
}

extension StoredWheel {
    func encode(into writer: inout BinaryWriter) {
        writer.write(seq)
        writer.write(id)
        switch target {
        case .progress(let progress):
            writer.write(UInt8(0))
            writer.write(progress)
        case .index(let index):
            writer.write(UInt8(1))
            writer.write(Int64(index))
        }
        writer.write(updatedAt)
    }

    init?(reader: inout BinaryReader) {
        guard let seq = reader.read(UInt64.self), let id = reader.readString(), let kind = reader.read(UInt8.self)
        else { return nil }
        let target: WheelTarget
        switch kind {
        case 0:
            guard let progress = reader.readDouble() else { return nil }
            target = .progress(progress)
        case 1:
            guard let index = reader.read(Int64.self) else { return nil }
            target = .index(Int(index))
        default:
            return nil
        }
        guard let updatedAt = reader.readDouble() else { return nil }
        self.init(id: id, target: target, seq: seq, updatedAt: updatedAt)
    }
}
