/// An operator's committed command to a playlist: an event in the change log's sequence, applied by every node at the
/// moment it was committed, so every node's screens hold, resume or switch together.
public struct StoredPlaylistCommand: Sendable, Equatable {
    public enum Action: Sendable, Equatable {
        /// Stop the rotation on the entry showing.
        case hold
        /// Start it again from the beginning of the held entry.
        case resume
        /// Show this 0-based entry for its full seconds.
        case show(entry: Int)
    }

    public var id: String
    public var action: Action
    public var seq: UInt64
    /// Seconds since 1970-01-01 UTC: the moment the command takes effect on every node.
    public var updatedAt: Double

    public init(id: String, action: Action, seq: UInt64, updatedAt: Double) {
        self.id = id
        self.action = action
        self.seq = seq
        self.updatedAt = updatedAt
    }
}

extension StoredPlaylistCommand {
    /// `seq: UInt64 | id | action: UInt8 (0 hold, 1 resume, 2 show) | entry: Int64 (show only) | updatedAt: Float64`.
    func encode(into writer: inout BinaryWriter) {
        writer.write(seq)
        writer.write(id)
        switch action {
        case .hold: writer.write(UInt8(0))
        case .resume: writer.write(UInt8(1))
        case .show(let entry):
            writer.write(UInt8(2))
            writer.write(Int64(entry))
        }
        writer.write(updatedAt)
    }

    init?(reader: inout BinaryReader) {
        guard let seq = reader.read(UInt64.self), let id = reader.readString(), let kind = reader.read(UInt8.self)
        else { return nil }
        let action: Action
        switch kind {
        case 0: action = .hold
        case 1: action = .resume
        case 2:
            guard let entry = reader.read(Int64.self), entry >= 0, entry <= Int64(Int32.max) else { return nil }
            action = .show(entry: Int(entry))
        default: return nil
        }
        guard let updatedAt = reader.readDouble() else { return nil }
        self.init(id: id, action: action, seq: seq, updatedAt: updatedAt)
    }
}
