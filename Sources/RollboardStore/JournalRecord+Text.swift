package import RollboardConfig

/// The journal and snapshot forms of producer-fed text: a text tile's message (record kind 3) and a carousel's
/// slides (record kind 4). An absent colour or `alt` is written as an empty string.
extension StoredText {
    /// `seq: UInt64 | id | text | color | updatedAt: Float64`.
    func encode(into writer: inout BinaryWriter) {
        writer.write(seq)
        writer.write(id)
        writer.write(text)
        writer.write(color ?? "")
        writer.write(updatedAt)
    }

    init?(reader: inout BinaryReader) {
        guard let seq = reader.read(UInt64.self), let id = reader.readString(), let text = reader.readString(),
            let color = reader.readString(), let updatedAt = reader.readDouble()
        else { return nil }
        self.init(id: id, text: text, color: color.isEmpty ? nil : color, seq: seq, updatedAt: updatedAt)
    }
}

extension StoredSlides {
    /// `seq: UInt64 | id | count: UInt32 | count × (kind: UInt8 (0 text, 1 image) | text or URL | alt (images
    /// only) | color) | updatedAt: Float64`.
    func encode(into writer: inout BinaryWriter) {
        writer.write(seq)
        writer.write(id)
        writer.write(UInt32(slides.count))
        for slide in slides {
            switch slide {
            case .text(let text, let color):
                writer.write(UInt8(0))
                writer.write(text)
                writer.write(color ?? "")
            case .image(let url, let alt, let color):
                writer.write(UInt8(1))
                writer.write(url)
                writer.write(alt ?? "")
                writer.write(color ?? "")
            }
        }
        writer.write(updatedAt)
    }

    init?(reader: inout BinaryReader) {
        guard let seq = reader.read(UInt64.self), let id = reader.readString(), let count = reader.read(UInt32.self),
            count > 0
        else { return nil }
        var slides: [ProducerSlide] = []
        for _ in 0..<count {
            guard let kind = reader.read(UInt8.self), let content = reader.readString() else { return nil }
            switch kind {
            case 0:
                guard let color = reader.readString() else { return nil }
                slides.append(.text(content, color: color.isEmpty ? nil : color))
            case 1:
                guard let alt = reader.readString(), let color = reader.readString() else { return nil }
                slides.append(.image(content, alt: alt.isEmpty ? nil : alt, color: color.isEmpty ? nil : color))
            default:
                return nil
            }
        }
        guard let updatedAt = reader.readDouble() else { return nil }
        self.init(id: id, slides: slides, seq: seq, updatedAt: updatedAt)
    }
}
