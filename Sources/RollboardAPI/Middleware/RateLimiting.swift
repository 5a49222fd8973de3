package import RollboardConfig
package import RollboardCore
import RollboardNet

/// Each producer token's requests per second (`limits.producerRequestsPerSecond`, bursts of twice that): over it,
/// 429 with `Retry-After`. Runs after ``ProducerAuthentication``, whose token it counts.
struct RateLimiting: Middleware {
    let limiter: RateLimiter
    /// Seconds on a monotonic clock.
    let now: @Sendable () -> Double

    init(rate: Double, now: (@Sendable () -> Double)? = nil) {
        self.limiter = RateLimiter(rate: rate)
        self.now = now ?? NodeClock.system.monotonic.now
    }

    func handle(
        _ context: RequestContext, respond: @escaping Respond, next: (RequestContext, @escaping Respond) -> Void
    ) throws(APIError) {
        if let token = context.producerToken, let wait = limiter.take(token.token, now: now()) {
            throw .rateLimited(retryAfter: wait)
        }
        next(context, respond)
    }
}
