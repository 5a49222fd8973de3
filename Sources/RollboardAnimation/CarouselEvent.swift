/// A change of a carousel's page (CustomBanner's `pageSelected`).
public struct CarouselEvent: Hashable, Sendable {
    /// What changed the page.
    public enum Cause: String, Hashable, Sendable {
        case timer, next, previous, goTo
    }

    /// When the page changed, in seconds.
    public let time: Double
    /// The newly selected page.
    public let page: Int
    /// What changed it.
    public let cause: Cause

    /// Creates the event of `cause` selecting `page` at `time`.
    public init(time: Double, page: Int, cause: Cause) {
        self.time = time
        self.page = page
        self.cause = cause
    }
}
