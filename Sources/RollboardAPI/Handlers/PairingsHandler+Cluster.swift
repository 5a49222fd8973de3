import RollboardAccess
import RollboardCore
import RollboardNet
import RollboardRedis
import RollboardRedisLog
import RollboardSources
import RollboardStore
import Synchronization

// With Redis, every code is the cluster's (``RedisPairings``): the node that issues it draws its TV's secret at once
// and offers the code with the secret's hash; any node pairs it by taking it from Redis (once, cluster-wide), makes
// the key with that hash, and leaves the key's id and page for the issuing node, whose poll hands the TV its secret.
// Failed claims are still counted by the node they reach (``PairingCodes``).
extension PairingsHandler {
    /// Offers the code just issued on this node to the cluster: `answer` once stored; another code drawn when a node
    /// already offers this one.
    func offer(
        _ code: String, secret: String, expiresIn: Double, shared: RedisPairings, attemptsLeft: Int,
        context: RequestContext, answer: HTTPResponse, respond: @escaping Respond
    ) {
        let milliseconds = Int((expiresIn * 1000).rounded(.down))
        shared.offer(code, secretHash: SHA256.hex(secret), milliseconds: milliseconds) { [self] result in
            switch result {
            case .success(true): return respond(answer)
            case .success(false):
                codes.withLock { $0.withdraw(code) }
                do throws(APIError) {
                    try issue(context, attempts: attemptsLeft, respond)
                } catch {
                    respond(error.response)
                }
            case .failure(let error):
                codes.withLock { $0.withdraw(code) }
                respond(Self.redisUnavailable(error).response)
            }
        }
    }

    /// The TV's poll of a cluster code: paired once Redis holds the answer for its secret and this node has the key.
    func pollShared(
        _ token: String, code: String, secret: String, waiting: HTTPResponse, shared: RedisPairings,
        context: RequestContext, respond: @escaping Respond
    ) {
        let hash = SHA256.hex(secret)
        shared.answer(for: hash) { [self] result in
            switch result {
            case .failure(let error): respond(Self.redisUnavailable(error).response)
            case .success(nil): respond(waiting)
            case .success(let (keyID, page)?):
                // Handed over only once this node applied the key: the TV's page opens here at once.
                guard keys.key(keyID) != nil else { return respond(waiting) }
                let url = page + "&key=" + SourceFetch.percentEncoded(secret)
                let now = context.clock.monotonic.now()
                guard let pairing = codes.withLock({ $0.handOver(token, keyID: keyID, url: url, now: now) }) else {
                    return respond(Self.unknownPairing.response)
                }
                shared.forgetAnswer(hash)
                respond(Self.paired(pairing))
            }
        }
    }

    /// An operator pairs a cluster code, from `address`: taken from Redis, its key made with the offered hash, the
    /// answer left for the issuing node.
    func pairShared(
        _ request: PairingRequest, address: String, shared: RedisPairings, context: RequestContext,
        respond: @escaping Respond
    ) throws(APIError) {
        let now = context.clock.monotonic.now()
        if let wait = codes.withLock({ $0.admitClaim(address: address, now: now) }) {
            throw Self.limited(wait, "too many failed pairing attempts")
        }
        let code = PairingCodes.normalized(request.code)
        guard PairingCodes.isWellFormed(code) else {
            codes.withLock { $0.countFailedClaim(address: address, now: now) }
            throw Self.unknownCode(request.code)
        }
        shared.take(code) { [self] result in
            switch result {
            case .failure(let error): respond(Self.redisUnavailable(error).response)
            case .success(nil):
                codes.withLock { $0.countFailedClaim(address: address, now: context.clock.monotonic.now()) }
                respond(Self.unknownCode(request.code).response)
            case .success(let offer?):
                makeKey(code, offer, request, shared: shared, respond: respond)
            }
        }
    }

    /// The code taken from Redis: its key made with the offered hash, then the answer left for the issuing node; the
    /// code offered again if the key could not be made.
    private func makeKey(
        _ code: String, _ offer: RedisPairings.Offer, _ request: PairingRequest, shared: RedisPairings,
        respond: @escaping Respond
    ) {
        let dashboards = request.dashboards
        keys.create(name: request.name, dashboards: dashboards, digest: offer.secretHash, now: wallNow()) {
            [self] created in
            let key: ViewerKey
            switch created {
            case .success(let made): key = made
            case .failure(let error):
                shared.restore(code, offer)
                return respond(Self.keysUnavailable(error).response)
            }
            let milliseconds = max(offer.milliseconds, Int(PairingCodes.Defaults.window * 1000))
            shared.answer(offer.secretHash, keyID: key.id, url: request.page, milliseconds: milliseconds) {
                [self] answered in
                guard case .failure(let error) = answered else {
                    return respond(paired(key.id, request, node: offer.node))
                }
                let detail = "key \(key.id) was made but its TV was not told (\(error)); revoke it and pair a new code"
                respond(APIError(status: .serviceUnavailable, code: "redis_unavailable", detail: detail).response)
            }
        }
    }

    static func redisUnavailable(_ error: RedisError) -> APIError {
        APIError(
            status: .serviceUnavailable, code: "redis_unavailable",
            detail: "Redis did not answer the pairing (\(error)); try again")
    }
}
