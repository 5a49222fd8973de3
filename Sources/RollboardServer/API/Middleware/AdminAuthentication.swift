import RollboardNet

/// The admin scope: the request must carry `Authorization: Bearer <admin token>`; none or an unknown one is 401, a
/// producer token 403.
struct AdminAuthentication: Middleware {
    private let tokens: [[UInt8]]
    private let producerTokens: [[UInt8]]

    init(tokens: [String], producerTokens: [ProducerToken]) {
        self.tokens = tokens.map { Array($0.utf8) }
        self.producerTokens = producerTokens.map { Array($0.token.utf8) }
    }

    func handle(
        _ context: RequestContext, respond: @escaping Respond, next: (RequestContext, @escaping Respond) -> Void
    ) throws(APIError) {
        guard let token = context.request.bearerToken else { throw .missingAdminToken }
        let presented = Array(token.utf8)
        var isAdmin = false
        var isProducer = false
        for token in tokens where ConstantTime.equals(token, presented) { isAdmin = true }
        for token in producerTokens where ConstantTime.equals(token, presented) { isProducer = true }
        if isProducer && !isAdmin {
            throw .forbidden("a producer token cannot manage viewer keys; use an admin token")
        }
        guard isAdmin else { throw .invalidAdminToken }
        next(context, respond)
    }
}
