
/// A change part that is an operator's action (to screens, to a viewer key), written `seq: UInt64 | action: UInt8 |
/// id | the action's own fields | updatedAt: Float64`: the type writes and reads the action, this the rest.
protocol StoredActionPart: StoredChangePart {
    associatedtype Action
    var action: Action { get }
    init(action: Action, seq: UInt64, updatedAt: Double)

    /// Writes `action`'s byte, the id it is about and its own fields.
    static func write(_ action: Action, into writer: inout BinaryWriter)
    /// Reads the fields of the action with byte `tag` about `id`; `nil` when they are not well formed.
    static func readAction(tag: UInt8, id: String, from reader: inout BinaryReader) -> Action?
}

extension StoredActionPart {
    func encode(into writer: inout BinaryWriter) {
        writer.write(seq)
        Self.write(action, into: &writer)
        writer.write(updatedAt)
    }

    init?(reader: inout BinaryReader) {
        guard let seq = reader.read(UInt64.self), let tag = reader.read(UInt8.self), let id = reader.readString(),
            let action = Self.readAction(tag: tag, id: id, from: &reader), let updatedAt = reader.readDouble()
        else { return nil }
        self.init(action: action, seq: seq, updatedAt: updatedAt)
    }
}
