/// What a carousel shows at one instant.
public struct CarouselState: Hashable, Sendable {
    /// The continuous slide position in [0, slides): 2.5 shows half of slide 2 and half of slide 3;
    /// past the last slide it wraps to 0.
    public let position: Double
    /// The page the indicator dots show: the slide being shown or slid to.
    public let page: Int
}
