package import RollboardConfig
import RollboardNet

/// A producer token restricted to some ids may write only those: the route's `:id` must be one (403 otherwise).
/// Runs after ``ProducerAuthentication``.
struct WritePermission: Middleware {
    func handle(
        _ context: RequestContext, respond: @escaping Respond, next: (RequestContext, @escaping Respond) -> Void
    ) throws(APIError) {
        let id = context.parameter("id")
        guard let token = context.producerToken, token.allows(id) else {
            throw .forbidden("this token may not write \(JSONText.quoted(id))")
        }
        next(context, respond)
    }
}
