
/// A number tile's `window`: it shows its metric reduced over a stretch of time (`aggregate`, by default the newest
/// value in it) instead of the latest value, and with `compare` its change arrow compares with the same moment of an
/// earlier period.
public struct WindowOptions: Sendable, Equatable {
    /// The window as written (`today`, `"last 15m"`).
    public var name: String
    package var span: WindowSpan
    package var aggregate: WindowAggregate
    package var compare: MetricWindow.Comparison?

    /// The options `window` names, or `nil` when it names no window.
    public init?(window: String, aggregate: String = WindowOptions.defaultAggregate, compare: String? = nil) {
        guard let span = WindowSpan(window), let reduced = WindowAggregate(rawValue: aggregate) else { return nil }
        let comparison = compare.flatMap(MetricWindow.Comparison.init(rawValue:))
        if compare != nil && comparison == nil { return nil }
        self.name = window
        self.span = span
        self.aggregate = reduced
        self.compare = comparison
    }

    /// `aggregate` when a tile gives none.
    public static let defaultAggregate = WindowAggregate.last.rawValue
}

extension TileConfiguration {
    /// Whether a number tile shows a status or a change arrow: a goal, thresholds, `delta`, or a window's `compare`.
    package var hasIndicator: Bool { !kpi.isEmpty || window?.compare != nil }
}
