/// A producer's committed command to a carousel: an event in the change log's sequence.
public struct StoredCarouselCommand: StoredIndexedCommand {
    public var id: String
    public var action: CarouselCommand.Action
    public var seq: UInt64
    /// Seconds since 1970-01-01 UTC.
    public var updatedAt: Double
}

extension StoredCarouselCommand {
    /// 0 next, 1 previous, 2 goto (with its page).
    static let indexedTag: UInt8 = 2

    static func tag(of action: CarouselCommand.Action) -> (tag: UInt8, index: Int?) {
        switch action {
        case .next: (0, nil)
        case .previous: (1, nil)
        case .goto(let page): (indexedTag, page)
        }
    }

    static func action(tag: UInt8, index: Int?) -> CarouselCommand.Action? {
        switch (tag, index) {
        case (0, nil): .next
        case (1, nil): .previous
        case (indexedTag, let page?): .goto(page: page)
        default: nil
        }
    }
}
