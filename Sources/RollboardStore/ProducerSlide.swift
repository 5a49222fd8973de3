package import RollboardConfig

/// One slide of a carousel as a producer set it: a text, or an image by URL.
public enum ProducerSlide: Sendable, Equatable {
    /// Text shown on the slide, in `color` (`#rgb` or `#rrggbb`) or the theme's colour.
    case text(String, color: String?)
    /// An `http(s)` or `data:image/` URL, with a description for screen readers, on `color` or the theme's background.
    case image(String, alt: String?, color: String?)

    /// The slide's colour, if the producer gave one.
    public var color: String? {
        switch self {
        case .text(_, let color), .image(_, _, let color): color
        }
    }
}
