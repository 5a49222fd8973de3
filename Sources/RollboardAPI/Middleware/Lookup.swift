import RollboardNet

/// A check that something the route names exists (a dashboard's hub, a playlist, a screen), answered 404 before the
/// body is looked at.
struct Lookup: Middleware {
    let check: @Sendable (RequestContext) throws(APIError) -> Void

    func handle(
        _ context: RequestContext, respond: @escaping Respond, next: (RequestContext, @escaping Respond) -> Void
    ) throws(APIError) {
        try check(context)
        next(context, respond)
    }
}
