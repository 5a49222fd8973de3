public import RollboardConfig

/// How much of each metric's series the change log keeps (see ``MetricSeries``).
public struct SeriesLimits: Sendable, Equatable {
    /// Seconds of raw changes kept (`seriesRetention`).
    public var retention: Double = ServerSettings.Defaults.seriesRetention
    /// The most raw changes kept per metric.
    public var maxPoints = 100_000
    /// Seconds of per-minute rollups kept: 35 days.
    public var minuteRetention = 35 * 86_400.0
    /// Seconds of per-hour rollups kept: 400 days.
    public var hourRetention = 400 * 86_400.0

    public init(retention: Double = ServerSettings.Defaults.seriesRetention) {
        self.retention = retention
    }
}
