package import RollboardConfig
import RollboardCore
package import RollboardHub
package import RollboardMetrics
import RollboardNet
package import RollboardRedisLog
package import RollboardStore
import Synchronization

/// Counts the answers of the requests that pass: accepted writes and refusals by status for
/// ``ProducerAPIStatistics``, and the answers to writes and their times for `GET /metrics`.
final class RequestMetrics: Middleware {
    private let counters = Mutex(ProducerAPIStatistics())
    private let metrics: ServerMetrics?

    init(metrics: ServerMetrics?) {
        self.metrics = metrics
    }

    /// The counts so far.
    var statistics: ProducerAPIStatistics {
        counters.withLock { $0 }
    }

    func handle(
        _ context: RequestContext, respond: @escaping Respond, next: (RequestContext, @escaping Respond) -> Void
    ) throws(APIError) {
        let method = context.request.method
        let isWrite = method != "GET" && method != "HEAD"
        let started = context.clock.monotonic.now()
        next(context) { [self] response in
            counters.withLock { $0.count(method, response.status.code) }
            if isWrite {
                metrics?.postFinished(status: response.status.code, seconds: context.clock.monotonic.now() - started)
            }
            respond(response)
        }
    }
}
