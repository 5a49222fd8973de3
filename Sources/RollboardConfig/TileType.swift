
/// The kinds of tile.
public enum TileType: String, Sendable, Equatable, CaseIterable {
    case odometer, counter, wheel, carousel, text, gauge, clock, leaderboard, chart

    /// Whether the tile's changes play through an animation queue (`queue`, `maxLag`, `backlog` apply).
    public var hasAnimationQueue: Bool {
        switch self {
        case .odometer, .counter, .wheel, .gauge, .leaderboard, .chart: true
        case .carousel, .text, .clock: false
        }
    }
}
