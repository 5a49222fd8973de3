
/// The kinds of tile.
public enum TileType: String, Sendable, Equatable, CaseIterable {
    case odometer, counter, wheel, carousel, text, gauge, clock, leaderboard, chart

    /// Whether the tile shows a value that goes stale when no new one comes (its `staleAfter` applies): a number, a
    /// wheel's position, a board; a carousel, a text and a clock never do (the page's `changeKey` is `null` for them).
    public var showsStaleness: Bool {
        ![.carousel, .text, .clock].contains(self)
    }

    /// Whether the tile's changes play through an animation queue (`queue`, `maxLag`, `backlog` apply).
    public var hasAnimationQueue: Bool {
        switch self {
        case .odometer, .counter, .wheel, .gauge, .leaderboard, .chart: true
        case .carousel, .text, .clock: false
        }
    }
}
