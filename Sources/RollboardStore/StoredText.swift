package import RollboardConfig

/// A text tile's latest durable message.
public struct StoredText: StoredChangePart {
    public var id: String
    /// Up to 500 characters; empty clears the tile.
    public var text: String
    /// `#rgb` or `#rrggbb`; `nil` uses the theme's colour.
    public var color: String?
    public var seq: UInt64
    /// Seconds since 1970-01-01 UTC.
    public var updatedAt: Double
}
