public import RollboardConfig

/// A producer's committed command to a carousel: an event in the change log's sequence.
public struct StoredCarouselCommand: StoredIndexedCommand {
    public var id: String
    public var action: CarouselAction
    public var seq: UInt64
    /// Seconds since 1970-01-01 UTC.
    public var updatedAt: Double
}

extension CarouselAction: IndexedAction {
    /// 0 next, 1 previous; 2 goto, with its page.
    static let plainActions: [CarouselAction] = [.next, .previous]

    static func indexed(_ page: Int) -> CarouselAction { .goto(page: page) }

    var index: Int? {
        guard case .goto(let page) = self else { return nil }
        return page
    }
}
