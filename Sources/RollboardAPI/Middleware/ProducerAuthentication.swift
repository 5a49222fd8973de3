package import RollboardAccess
package import RollboardConfig
package import RollboardCore
import RollboardNet
package import RollboardStore

/// The producer scope: the request must carry `Authorization: Bearer <producer token>` (401 otherwise); the token
/// is kept in the context for ``RateLimiting`` and ``WritePermission``.
struct ProducerAuthentication: Middleware {
    let tokens: [ProducerToken]

    func handle(
        _ context: RequestContext, respond: @escaping Respond, next: (RequestContext, @escaping Respond) -> Void
    ) throws(APIError) {
        guard let bearer = context.request.bearerToken else { throw .missingToken }
        let presented = Array(bearer.utf8)
        var match: ProducerToken?
        for token in tokens where ConstantTime.equals(Array(token.token.utf8), presented) {
            match = token
        }
        guard let match else { throw .invalidToken }
        var context = context
        context.producerToken = match
        next(context, respond)
    }
}
