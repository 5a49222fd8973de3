/// The four kinds of tile.
public enum TileType: String, Sendable, Equatable, CaseIterable {
    case odometer, counter, wheel, carousel
}
