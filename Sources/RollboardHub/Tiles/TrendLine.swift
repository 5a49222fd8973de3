package import RollboardAccess
import RollboardAnimation
package import RollboardConfig
package import RollboardStore

/// An odometer's or counter's sparkline (`trend: 24h`): the last value of each bucket of its metric's series, read
/// from the series when the tile is built and moved on by each committed change (its bucket is the one of its commit
/// time, as in the series). A windowed tile's sparkline is its metric's too, never its window's number. It does not animate: a change moves it in one step, so it only ever shows posted values.
///
/// On the wire it is `"spark":[H,…]`, oldest first, each point's height in hundredths of the sparkline's from its
/// lowest value (0) to its highest (100; 50 for all when they are equal), `null` for a gap: sent only when it changes.
struct TrendLine: Sendable, Equatable {
    let step: Int64
    /// Wall-clock seconds since 1970 at hub time 0 (only for a change that is not stored: every committed change
    /// carries its commit time, so a stepped system clock does not move the buckets).
    let wallOffset: Double
    private(set) var points: ChartPoints
    /// The `spark` member for ``points`` (computed once per change).
    private(set) var member: TileState.Member

    init(options: TrendOptions, series: MetricSeries, current: StoredMetric?, wallOffset: Double) {
        step = options.step
        self.wallOffset = wallOffset
        points =
            ChartTile.Seed(series: series, current: current, step: options.step, count: options.count, sums: false)?
            .points ?? ChartPoints(newest: 0, values: Array(repeating: nil, count: options.count))
        member = Self.member(points)
    }

    /// Takes a new value committed at wall-clock `committedAt` and applied at hub time `time`: its bucket is the one of
    /// its commit time, the same on every node and for a screen shown it later (a replay); a change that is not stored
    /// (`committedAt` `nil`) goes in the bucket of the node's wall clock at `time`.
    mutating func add(_ value: Double, committedAt: Double?, at time: Double) {
        let bucket = Int64(((committedAt ?? time + wallOffset) / Double(step)).rounded(.down))
        points = points.moved(to: max(bucket, points.newest), value: value)
        member = Self.member(points)
    }

    static func member(_ points: ChartPoints) -> TileState.Member {
        let known = points.values.compactMap { $0 }
        let low = known.min() ?? 0
        let high = known.max() ?? 0
        let heights = points.values.map { value -> String in
            guard let value else { return "null" }
            return high > low ? String(Int(((value - low) / (high - low) * 100).rounded())) : "50"
        }
        return TileState.Member("spark", "[" + heights.joined(separator: ",") + "]")
    }
}
