/// Durations observed, counted in cumulative buckets as a Prometheus histogram shows them: an observation counts in
/// every bucket whose bound is at or above it.
public struct LatencyHistogram: Sendable, Equatable {
    /// The buckets' upper bounds, in seconds, ascending.
    public let bounds: [Double]
    /// Observations within each of `bounds` (cumulative).
    public private(set) var counts: [Int]
    /// Every observation, and their total seconds.
    public private(set) var count = 0
    public private(set) var sum = 0.0

    public init(bounds: [Double]) {
        self.bounds = bounds
        counts = [Int](repeating: 0, count: bounds.count)
    }

    package mutating func record(seconds: Double) {
        count += 1
        sum += seconds
        for (index, bound) in bounds.enumerated() where seconds <= bound { counts[index] += 1 }
    }

    /// Its samples in the exposition format: the cumulative count at each bound, then every observation's count and
    /// their sum.
    var samples: [(String, String)] {
        zip(bounds, counts).map { bound, cumulative in ("_bucket{le=\"\(bound)\"}", "\(cumulative)") }
            + [("_bucket{le=\"+Inf\"}", "\(count)"), ("_sum", "\(sum)"), ("_count", "\(count)")]
    }
}
