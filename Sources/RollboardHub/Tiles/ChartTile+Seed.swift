import RollboardAnimation
package import RollboardConfig
package import RollboardStore

extension ChartTile.Seed {
    /// The chart's start from its metric's series: the buckets of `options.step` up to the bucket of the newest commit,
    /// each its last value (or, for `sum`, its last value minus the last one before it, 0 before the first), read from
    /// the per-minute or per-hour rollups. A metric with a value but no series (stored before series were kept) shows
    /// that one value; `nil` with no value at all.
    init?(series: MetricSeries, current: StoredMetric?, options: ChartOptions) {
        self.init(series: series, current: current, step: options.step, count: options.count,
            sums: options.aggregate == .sum)
    }

    /// The same for `count` buckets of `step` seconds, each its last value or (`sums`) what it added.
    init?(series: MetricSeries, current: StoredMetric?, step: Int64, count: Int, sums: Bool) {
        guard series.newest.isFinite else {
            guard let current else { return nil }
            let bucket = Int64((current.updatedAt / Double(step)).rounded(.down))
            self.init(
                points: ChartPoints(newest: bucket, values: Array(repeating: nil, count: count - 1) + [current.value]),
                latest: current.value, beforeNewest: 0)
            return
        }
        let newest = Int64((series.newest / Double(step)).rounded(.down))
        let first = newest - Int64(count) + 1
        var before = series.buckets(from: -.infinity, to: Double(first * step), step: step).last?.last ?? 0
        var beforeNewest = before
        var values = [Double?](repeating: nil, count: count)
        var latest = before
        for bucket in series.buckets(from: Double(first * step), to: Double((newest + 1) * step), step: step) {
            let index = Int(bucket.start / step - first)
            guard values.indices.contains(index) else { continue }
            if index == count - 1 { beforeNewest = before }
            values[index] = sums ? bucket.last - before : bucket.last
            before = bucket.last
            latest = bucket.last
        }
        self.init(points: ChartPoints(newest: newest, values: values), latest: current?.value ?? latest,
            beforeNewest: beforeNewest)
    }
}
