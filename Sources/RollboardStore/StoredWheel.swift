package import RollboardConfig

/// A wheel's latest durable target.
public struct StoredWheel: StoredChangePart {
    public var id: String
    public var target: WheelTarget
    public var seq: UInt64
    /// Seconds since 1970-01-01 UTC.
    public var updatedAt: Double
}

extension StoredWheel {
    /// `seq: UInt64 | id | target kind: UInt8 (0 progress, 1 index) | progress: Float64 or index: Int64 | updatedAt:
    /// Float64`.
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
