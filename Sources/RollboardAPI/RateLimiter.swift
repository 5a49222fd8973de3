package import RollboardAccess
package import RollboardConfig
package import RollboardCore
package import RollboardStore
import Synchronization

/// A token bucket per key: `rate` requests per second on average, bursts of `2 × rate`.
final class RateLimiter: Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: Double
    }

    let rate: Double
    private let burst: Double
    private let buckets = Mutex<[String: Bucket]>([:])

    init(rate: Double) {
        self.rate = rate
        self.burst = Swift.max(1, rate * 2)
    }

    /// Takes one request for `key` at time `now` (seconds, monotonic): `nil` if allowed, else the seconds until
    /// the next one would be.
    func take(_ key: String, now: Double) -> Double? {
        buckets.withLock { buckets in
            var bucket = buckets[key] ?? Bucket(tokens: burst, updated: now)
            bucket.tokens = Swift.min(burst, bucket.tokens + (now - bucket.updated) * rate)
            bucket.updated = now
            defer { buckets[key] = bucket }
            guard bucket.tokens >= 1 else { return (1 - bucket.tokens) / rate }
            bucket.tokens -= 1
            return nil
        }
    }
}
