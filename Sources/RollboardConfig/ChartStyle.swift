
/// How a chart draws its points.
public enum ChartStyle: String, Sendable, Equatable, CaseIterable {
    /// A line through the points, broken at gaps.
    case line
    /// The line with the area under it filled.
    case area
    /// One bar per point, from 0.
    case bars
}
