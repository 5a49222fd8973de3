import RollboardNet

/// A step every request of a route (or of a group of routes) passes before its handler: it may refuse the request
/// by throwing, answer it itself, pass it on (`next`) with a richer context, or look at the answer on its way back
/// by wrapping `respond`.
///
/// A refusal thrown by a later step reaches `respond` as its JSON response, so a middleware that wraps `respond`
/// sees every answer, refusals included.
protocol Middleware: Sendable {
    func handle(
        _ context: RequestContext, respond: @escaping Respond,
        next: (RequestContext, @escaping Respond) -> Void
    ) throws(APIError)
}
