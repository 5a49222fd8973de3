/// A producer's committed command to a carousel: an event in the change log's sequence.
public struct StoredCarouselCommand: Sendable, Equatable {
    public var id: String
    public var action: CarouselCommand.Action
    public var seq: UInt64
    /// Seconds since 1970-01-01 UTC.
    public var updatedAt: Double

    public init(id: String, action: CarouselCommand.Action, seq: UInt64, updatedAt: Double) {
        self.id = id
        self.action = action
        self.seq = seq
        self.updatedAt = updatedAt
    }
}

extension StoredCarouselCommand {
    /// `seq: UInt64 | id | action: UInt8 (0 next, 1 previous, 2 goto) | page: Int64 (goto only) | updatedAt: Float64`.
    func encode(into writer: inout BinaryWriter) {
        writer.write(seq)
        writer.write(id)
        switch action {
        case .next: writer.write(UInt8(0))
        case .previous: writer.write(UInt8(1))
        case .goto(let page):
            writer.write(UInt8(2))
            writer.write(Int64(page))
        }
        writer.write(updatedAt)
    }

    init?(reader: inout BinaryReader) {
        guard let seq = reader.read(UInt64.self), let id = reader.readString(), let kind = reader.read(UInt8.self)
        else { return nil }
        let action: CarouselCommand.Action
        switch kind {
        case 0: action = .next
        case 1: action = .previous
        case 2:
            guard let page = reader.read(Int64.self), page >= 0, page <= Int64(Int32.max) else { return nil }
            action = .goto(page: Int(page))
        default: return nil
        }
        guard let updatedAt = reader.readDouble() else { return nil }
        self.init(id: id, action: action, seq: seq, updatedAt: updatedAt)
    }
}
