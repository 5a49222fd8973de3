/// What a chart frame shows: the values the path runs through, how far it has slid, and the value range its height
/// spans.
///
/// Point `i` of ``values`` is drawn `i − shift` steps from the left edge (the chart's points sit on steps
/// `0 … count − 1`); while a slide runs, ``values`` also holds the points leaving on the left. The last value is the
/// newest point, the one that follows the value as it changes.
public struct ChartState: Equatable, Sendable {
    /// The points, oldest first; `nil` is a gap.
    public var values: [Double?]
    /// How many steps the path has slid to the left: 0 at rest, growing to the slide's length while it runs.
    public var shift: Double
    /// The value at the bottom of the plot.
    public var low: Double
    /// The value at the top of the plot.
    public var high: Double
    /// The number of the newest bucket these points end on (see ``ChartPoints``).
    public var newest: Int64

    public init(values: [Double?], shift: Double, low: Double, high: Double, newest: Int64) {
        self.values = values
        self.shift = shift
        self.low = low
        self.high = high
        self.newest = newest
    }

    /// The newest point's value as the frame shows it.
    public var last: Double? { values.last ?? nil }
}
