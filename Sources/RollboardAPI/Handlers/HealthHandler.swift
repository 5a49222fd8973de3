package import RollboardAccess
package import RollboardConfig
package import RollboardCore
package import RollboardHub
package import RollboardMetrics
import RollboardNet
package import RollboardRedisLog
package import RollboardSources
package import RollboardStore

/// `GET /healthz` (the process answers) and `GET /readyz` (the store makes writes durable).
struct HealthHandler: Sendable {
    let store: any ChangeLog

    /// Liveness: the process answers. Whether it can take writes is `/readyz`'s question.
    func health(_ context: RequestContext, _ respond: @escaping Respond) {
        respond(JSONResponse.ok(status("ok")))
    }

    /// Readiness: 200 while the store makes writes durable; 503 once it has failed, or while a write has waited for
    /// the disk longer than the commit timeout.
    func readiness(_ context: RequestContext, _ respond: @escaping Respond) throws(APIError) {
        if let failure = store.failure { throw .storeUnavailable(failure) }
        let timeout = context.configuration.server.limits.commitTimeout
        if let waiting = store.unconfirmedSeconds, waiting > timeout {
            throw .storeStalled(seconds: waiting)
        }
        respond(JSONResponse.ok(status("ready")))
    }

    private func status(_ word: String) -> JSONValue {
        .object([
            JSONMember("status", .string(word)),
            JSONMember("epoch", .string(store.epoch)),
            JSONMember("seq", .number(store.lastSeq)),
        ])
    }
}
