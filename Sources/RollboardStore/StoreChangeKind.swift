
/// A kind of ``StoreChange`` as its codec sees it: the kind byte that starts its journal record, whether it holds
/// a batch of parts or exactly one, and how its parts are taken out of and put back into the change. The kinds are
/// listed once, in ``StoreChange/kinds``.
struct StoreChangeKind: Sendable {
    /// The kind byte.
    let tag: UInt8
    /// A batch is written `count: UInt32` (at least 1), then each part; any other kind is its one part.
    let isBatch: Bool
    /// The change's parts when it is of this kind, else `nil`.
    let parts: @Sendable (StoreChange) -> [any StoredChangePart]?
    /// The change of this kind holding `parts`; `nil` when they are not this kind's (or not one, for a single part).
    let change: @Sendable ([any StoredChangePart]) -> StoreChange?
    /// Reads one part of this kind.
    let readPart: @Sendable (inout BinaryReader) -> (any StoredChangePart)?

    /// A kind whose change holds one `Part`.
    init<Part: StoredChangePart>(
        tag: UInt8, _: Part.Type, make: @escaping @Sendable (Part) -> StoreChange,
        take: @escaping @Sendable (StoreChange) -> Part?
    ) {
        self.tag = tag
        isBatch = false
        parts = { take($0).map { [$0] } }
        change = { parts in (parts.count == 1 ? parts[0] as? Part : nil).map(make) }
        readPart = { Part(reader: &$0) }
    }

    /// A kind whose change holds one `Part`, the change's ``StoreChange/singlePart`` when it is one.
    init<Part: StoredChangePart>(tag: UInt8, _ part: Part.Type, make: @escaping @Sendable (Part) -> StoreChange) {
        self.init(tag: tag, part, make: make, take: { $0.singlePart as? Part })
    }

    /// A kind whose change holds a batch of `Part`s.
    init<Part: StoredChangePart>(
        batchTag tag: UInt8, _: Part.Type, make: @escaping @Sendable ([Part]) -> StoreChange,
        take: @escaping @Sendable (StoreChange) -> [Part]?
    ) {
        self.tag = tag
        isBatch = true
        parts = { take($0) }
        change = { parts in
            let typed = parts.compactMap { $0 as? Part }
            return typed.count == parts.count ? make(typed) : nil
        }
        readPart = { Part(reader: &$0) }
    }
}
