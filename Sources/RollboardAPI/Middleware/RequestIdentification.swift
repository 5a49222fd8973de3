import Logging
package import RollboardAccess
package import RollboardConfig
package import RollboardCore
package import RollboardHub
import RollboardNet
package import RollboardStore

/// Names each request for the logs and the `X-Request-Id` response header (the caller's own sane id, else a new
/// one), and logs its answer and how long it took on the node's clock: path only, never the query (which may carry
/// a viewer key) nor headers.
struct RequestIdentification: Middleware {
    let ids: RequestIDs
    let logger: Logger

    func handle(
        _ context: RequestContext, respond: @escaping Respond, next: (RequestContext, @escaping Respond) -> Void
    ) throws(APIError) {
        let request = context.request
        let id = ids.id(given: request.headers["X-Request-Id"])
        let clock = context.clock.monotonic
        let started = clock.now()
        let logger = self.logger
        next(context) { response in
            var response = response
            response.headers.add(name: "X-Request-Id", value: id)
            let milliseconds = (clock.now() - started) * 1_000
            let metadata: Logger.Metadata = [
                "request_id": "\(id)", "method": "\(request.method)", "path": "\(request.path)",
                "status": "\(response.status.code)", "ms": "\((milliseconds * 10).rounded() / 10)",
            ]
            // A 503 (store or Redis unavailable) is logged once by the store, not once per request or probe.
            if response.status.code >= 500 && response.status.code != 503 {
                logger.warning("request failed", metadata: metadata)
            } else {
                logger.debug("request", metadata: metadata)
            }
            respond(response)
        }
    }
}
