/// A text tile's latest durable message.
public struct StoredText: Sendable, Equatable {
    public var id: String
    /// Up to 500 characters; empty clears the tile.
    public var text: String
    /// `#rgb` or `#rrggbb`; `nil` uses the theme's colour.
    public var color: String?
    public var seq: UInt64
    /// Seconds since 1970-01-01 UTC.
    public var updatedAt: Double

    public init(id: String, text: String, color: String? = nil, seq: UInt64, updatedAt: Double) {
        self.id = id
        self.text = text
        self.color = color
        self.seq = seq
        self.updatedAt = updatedAt
    }
}
