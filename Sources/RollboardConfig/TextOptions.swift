
/// Options of a `text` tile: a short message that producers set (`POST /api/v1/texts/{id}`).
public struct TextOptions: Sendable, Equatable {
    /// How the message lines up in the tile.
    public enum Alignment: String, Sendable, Equatable, CaseIterable {
        case left, center, right
    }

    /// The message shown until a producer sets one (at most ``maximumLength`` characters).
    public var text: String
    public var align: Alignment

    /// The most characters a message may have, configured or posted.
    public static let maximumLength = DisplayText.Defaults.textCharacters

    public init(text: String = "", align: Alignment = .center) {
        self.text = text
        self.align = align
    }
}
