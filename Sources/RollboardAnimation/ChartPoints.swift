/// What a chart shows at rest: one value per bucket of `step` seconds, oldest first, the last one being bucket
/// `newest` (the bucket that starts at `newest × step` seconds since 1970). `nil` is a bucket with no change: a gap.
public struct ChartPoints: Equatable, Sendable {
    /// The number of the newest bucket.
    public var newest: Int64
    /// One value per bucket, oldest first; as many as the chart has points.
    public var values: [Double?]

    public init(newest: Int64, values: [Double?]) {
        self.newest = newest
        self.values = values
    }

    /// These points moved on to bucket `bucket` (later than ``newest``): the oldest buckets leave on the left, the
    /// buckets in between are gaps, and the new newest one holds `value`. A bucket at or before ``newest`` sets the
    /// newest value instead (a clock that stepped back never moves a chart backwards).
    public func moved(to bucket: Int64, value: Double) -> ChartPoints {
        var next = self
        let count = values.count
        let steps = bucket > newest ? min(bucket - newest, Int64(count)) : 0
        if steps > 0 {
            next.values = Array(values.dropFirst(Int(steps))) + Array(repeating: nil, count: Int(steps))
            next.newest = bucket
        }
        if count > 0 { next.values[count - 1] = value }
        return next
    }
}
