public import RollboardAnimation

/// Options of a `carousel` tile: slides that advance on their own every `interval` seconds.
public struct CarouselOptions: Sendable, Equatable {
    /// At least one slide.
    public var slides: [CarouselSlide]
    /// Seconds between automatic page changes.
    public var interval: Double
    /// CSS colour (`#rgb` or `#rrggbb`) of the page dots; `nil` follows the page's theme.
    public var dotColor: String?
    /// CSS colour of the current page's dot; `nil` follows the page's theme.
    public var activeDotColor: String?

    public init(
        slides: [CarouselSlide], interval: Double = CarouselConfiguration.defaultInterval, dotColor: String? = nil, activeDotColor: String? = nil
    ) {
        self.slides = slides
        self.interval = interval
        self.dotColor = dotColor
        self.activeDotColor = activeDotColor
    }

    /// Whether `text` is `#rgb` or `#rrggbb` in hex digits.
    public static func isColor(_ text: String) -> Bool {
        guard text.first == "#", text.count == 4 || text.count == 7 else { return false }
        return text.dropFirst().allSatisfy(\.isHexDigit)
    }
}
