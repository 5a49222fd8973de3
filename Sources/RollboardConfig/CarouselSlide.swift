
/// One slide of a carousel: an image (a path under `public/`, or a URL path) or a text.
public enum CarouselSlide: Sendable, Equatable {
    case image(String)
    case text(String)
}
