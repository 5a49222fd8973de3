/// A producer's command to a carousel; committed to the change log as an event (``StoredCarouselCommand``).
public struct CarouselCommand: Sendable, Equatable {
    public var id: String
    public var action: Action

    public init(id: String, action: Action) {
        self.id = id
        self.action = action
    }

    public enum Action: Sendable, Equatable {
        case next
        case previous
        /// Slide to this 0-based page.
        case goto(page: Int)
    }
}
