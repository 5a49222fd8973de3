/// The kinds of tile.
public enum TileType: String, Sendable, Equatable, CaseIterable {
    case odometer, counter, wheel, carousel, text, gauge, clock

    /// Whether the tile's changes play through an animation queue (`queue`, `maxLag`, `backlog` apply).
    public var hasAnimationQueue: Bool {
        switch self {
        case .odometer, .counter, .wheel, .gauge: true
        case .carousel, .text, .clock: false
        }
    }
}
