package import RollboardConfig

/// A stored command to one carousel or playlist whose action is one of a few plain ones or one that carries an index
/// (a carousel's `goto` a page, a playlist's `show` an entry). Written `seq: UInt64 | id | action: UInt8 | index:
/// Int64 (the indexed action only) | updatedAt: Float64`.
protocol StoredIndexedCommand: StoredChangePart {
    associatedtype Action: IndexedAction
    var id: String { get }
    var action: Action { get }
    init(id: String, action: Action, seq: UInt64, updatedAt: Double)
}

/// The action of a ``StoredIndexedCommand``: one of a few plain actions, written as their place in
/// ``plainActions`` (0, 1, …), or the one that carries an index, written as the next byte with its index after it.
protocol IndexedAction: Sendable, Equatable {
    /// The plain actions in the order of their bytes; never to be reordered, only appended to (after a migration of
    /// the indexed byte).
    static var plainActions: [Self] { get }
    /// The action that carries `index`.
    static func indexed(_ index: Int) -> Self
    /// The index this action carries; nil for a plain one.
    var index: Int? { get }
}

extension IndexedAction {
    /// The byte of the action that carries an index.
    static var indexedTag: UInt8 { UInt8(plainActions.count) }

    /// The action's byte, and its index when it is the indexed one.
    var tag: (tag: UInt8, index: Int?) {
        if let index { return (Self.indexedTag, index) }
        guard let place = Self.plainActions.firstIndex(of: self) else {
            preconditionFailure("\(self) carries no index and is not among the plain actions")
        }
        return (UInt8(place), nil)
    }

    /// The action of `tag` (with `index` for the indexed one); nil for an unknown byte or a missing index.
    init?(tag: UInt8, index: Int?) {
        if tag == Self.indexedTag, let index {
            self = .indexed(index)
        } else if index == nil, Int(tag) < Self.plainActions.count {
            self = Self.plainActions[Int(tag)]
        } else {
            return nil
        }
    }
}

extension StoredIndexedCommand {
    func encode(into writer: inout BinaryWriter) {
        writer.write(seq)
        writer.write(id)
        let (tag, index) = action.tag
        writer.write(tag)
        if let index { writer.write(Int64(index)) }
        writer.write(updatedAt)
    }

    init?(reader: inout BinaryReader) {
        guard let seq = reader.read(UInt64.self), let id = reader.readString(), let tag = reader.read(UInt8.self)
        else { return nil }
        var index: Int?
        if tag == Action.indexedTag {
            guard let value = reader.read(Int64.self), value >= 0, value <= Int64(Int32.max) else { return nil }
            index = Int(value)
        }
        guard let action = Action(tag: tag, index: index), let updatedAt = reader.readDouble() else { return nil }
        self.init(id: id, action: action, seq: seq, updatedAt: updatedAt)
    }
}
