
/// What a producer tells a carousel to do; committed to the change log as an event (``StoredCarouselCommand``).
public enum CarouselAction: Sendable, Equatable {
    case next
    case previous
    /// Slide to this 0-based page.
    case goto(page: Int)
}
