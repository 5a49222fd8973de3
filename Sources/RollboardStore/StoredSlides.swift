package import RollboardConfig

/// A carousel's latest durable slides, as a producer set them (replacing the configured ones).
public struct StoredSlides: StoredChangePart {
    public var id: String
    /// At least one slide.
    public var slides: [ProducerSlide]
    public var seq: UInt64
    /// Seconds since 1970-01-01 UTC.
    public var updatedAt: Double
}
