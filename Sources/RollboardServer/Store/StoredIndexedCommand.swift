/// A stored command to one carousel or playlist whose action is one of a few plain ones or one that carries an index
/// (a carousel's `goto` a page, a playlist's `show` an entry). Written `seq: UInt64 | id | action: UInt8 | index:
/// Int64 (the indexed action only) | updatedAt: Float64`.
protocol StoredIndexedCommand: StoredChangePart {
    associatedtype Action
    var id: String { get }
    var action: Action { get }
    init(id: String, action: Action, seq: UInt64, updatedAt: Double)

    /// The action byte that carries an index.
    static var indexedTag: UInt8 { get }
    /// `action`'s byte, and its index when it is the indexed one.
    static func tag(of action: Action) -> (tag: UInt8, index: Int?)
    /// The action of `tag` (with `index` for the indexed one); `nil` for an unknown byte.
    static func action(tag: UInt8, index: Int?) -> Action?
}

extension StoredIndexedCommand {
    func encode(into writer: inout BinaryWriter) {
        writer.write(seq)
        writer.write(id)
        let (tag, index) = Self.tag(of: action)
        writer.write(tag)
        if let index { writer.write(Int64(index)) }
        writer.write(updatedAt)
    }

    init?(reader: inout BinaryReader) {
        guard let seq = reader.read(UInt64.self), let id = reader.readString(), let tag = reader.read(UInt8.self)
        else { return nil }
        var index: Int?
        if tag == Self.indexedTag {
            guard let value = reader.read(Int64.self), value >= 0, value <= Int64(Int32.max) else { return nil }
            index = Int(value)
        }
        guard let action = Self.action(tag: tag, index: index), let updatedAt = reader.readDouble() else { return nil }
        self.init(id: id, action: action, seq: seq, updatedAt: updatedAt)
    }
}
