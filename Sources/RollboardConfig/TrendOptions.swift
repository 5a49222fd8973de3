
/// An odometer's or counter's `trend: 24h`: a sparkline under the number, one point per bucket of the metric's series
/// over the last so long (the bucket's last value; a bucket with no change is a gap).
public struct TrendOptions: Sendable, Equatable {
    /// The stretch the sparkline covers, in seconds.
    public var window: Double
    /// The bucket width in seconds.
    public var step: Int64

    /// The most points a sparkline has.
    public static let maxPoints = 24

    /// The number of points.
    public var count: Int { Int(window / Double(step)) }

    /// Reads `trend` (`24h`, `1h`, `7d`…); `nil` without one. `ok` is false when it is wrong (reported, naming the
    /// field).
    static func read(_ reader: YAMLMappingReader) -> (trend: TrendOptions?, ok: Bool) {
        guard let text = reader.string("trend") else { return (nil, reader.node("trend") == nil) }
        guard let seconds = ChartOptions.seconds(text),
            let step = ChartOptions.steps.first(where: { seconds % $0 == 0 && (2...Int64(maxPoints)).contains(seconds / $0) })
        else {
            reader.report("trend", "must be a stretch like 1h, 24h or 7d (from 2m to 24d), got \"\(text)\"")
            return (nil, false)
        }
        return (TrendOptions(window: Double(seconds), step: step), true)
    }
}
