import Dispatch
import Logging
import RollboardConfig
import RollboardCore
import RollboardNet
import RollboardRedis
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Finding the primary through Sentinel before each opening or reconnection, decided by ``SentinelMachine``: every
// answer comes back through `queue`. Without `redis.sentinels` the link connects to `redis.url` at once.
extension RedisChangeLog {
    /// The link's connections: at `redis.url`, or with Sentinel at the primary found last.
    var connectionConfiguration: RedisConnection.Configuration {
        guard let primary = state.withLock({ $0.sentinel?.primary }) else { return baseConfiguration }
        return Self.configuration(baseConfiguration, at: primary)
    }

    /// The reader's connection: with Sentinel and `ackReplicas`, on a replica that replicates the primary, so the node
    /// applies only changes a replica has, which a failover keeps (reading from the primary, it could apply a change
    /// the primary took but did not replicate before it died, and the promoted replica's history would then be behind
    /// the node's). Otherwise, as ``connectionConfiguration``.
    var readerConfiguration: RedisConnection.Configuration {
        guard let replica = state.withLock({ $0.readerReplica }) else { return connectionConfiguration }
        return Self.configuration(baseConfiguration, at: replica)
    }

    /// The link's configuration without Sentinel's address, and one per Sentinel; the passwords are read from the
    /// environment here (a variable that is unset fails the node's start).
    static func configurations(
        _ settings: RedisSettings
    ) throws -> (base: RedisConnection.Configuration, sentinels: [RedisConnection.Configuration]) {
        let environment: (String) -> String? = SourceHeader.processEnvironment
        guard let sentinel = settings.sentinel else {
            var base = RedisConnection.Configuration(url: try RedisURL(settings.url))
            base.tls = ClientTLSOptions(trustedCertificatesPath: settings.caFile)
            base.name = "rollboard"
            return (base, [])
        }
        let password = try RedisSentinelSettings.secret(sentinel.passwordVariable, field: "password", environment: environment)
        let sentinelPassword = try RedisSentinelSettings.secret(
            sentinel.sentinelPasswordVariable, field: "sentinelPassword", environment: environment)
        var base = RedisConnection.Configuration(
            url: RedisURL(host: "", port: 0, username: sentinel.username, password: password))
        base.name = "rollboard"
        let sentinels = sentinel.sentinels.compactMap(RedisSentinelSettings.address).map { address in
            RedisConnection.Configuration(
                url: RedisURL(host: address.host, port: address.port, password: sentinelPassword),
                connectTimeout: RedisSettings.Defaults.sentinelTimeout)
        }
        return (base, sentinels)
    }

    static func configuration(
        _ base: RedisConnection.Configuration, at address: SentinelMachine.Address
    ) -> RedisConnection.Configuration {
        var configuration = base
        configuration.url.host = address.host
        configuration.url.port = address.port
        return configuration
    }

    /// Runs `proceed` (the opening or reconnection of `generation`) once the primary is found and answers `ROLE` as
    /// one; without Sentinels, at once. A round that finds none fails the opening or reconnection: the link tries
    /// again with backoff, asking the Sentinels again.
    func locatePrimary(generation: Int, then proceed: @escaping @Sendable () -> Void) {
        dispatchPrecondition(condition: .onQueue(queue))
        let now = linkClock.now()
        guard let actions = state.withLock({ $0.sentinel?.discover(now: now) }) else { return proceed() }
        performSentinel(actions, generation: generation, proceed)
    }

    /// Carries out the Sentinel machine's actions on `queue`.
    private func performSentinel(
        _ actions: [SentinelMachine.Action], generation: Int, _ proceed: @escaping @Sendable () -> Void
    ) {
        dispatchPrecondition(condition: .onQueue(queue))
        let next: @Sendable (@escaping @Sendable (inout SentinelMachine, Double) -> [SentinelMachine.Action]) -> Void = {
            [weak self] input in
            guard let self else { return }
            queue.async { [self] in
                let now = linkClock.now()
                let actions = state.withLock { state -> [SentinelMachine.Action] in
                    guard var machine = state.sentinel else { return [] }
                    defer { state.sentinel = machine }
                    return input(&machine, now)
                }
                performSentinel(actions, generation: generation, proceed)
            }
        }
        for action in actions {
            switch action {
            case .ask(let sentinel, let round):
                Self.once(sentinelConfigurations[sentinel], ["SENTINEL", "get-master-addr-by-name", sentinelMaster]) { result in
                    let answer: SentinelMachine.Answer
                    switch result {
                    case .success(.array(let parts)) where parts.count == 2:
                        if let host = parts[0].string, let port = parts[1].string.flatMap({ Int($0) }) {
                            answer = .primary(SentinelMachine.Address(host: host, port: port))
                        } else {
                            answer = .failed("unexpected answer \(parts)")
                        }
                    case .success(.null): answer = .unknown
                    case .success(let other): answer = .failed("unexpected answer \(other)")
                    case .failure(let error): answer = .failed("\(error)")
                    }
                    next { machine, now in machine.answered(round: round, answer: answer, now: now) }
                }
            case .checkRole(let address, let round):
                Self.once(Self.configuration(baseConfiguration, at: address), ["ROLE"]) { result in
                    let role: SentinelMachine.Role
                    switch result {
                    case .success(.array(let parts)) where parts.first?.string == "master": role = .master
                    case .success(.array(let parts)) where parts.first?.string != nil: role = .other(parts[0].string!)
                    case .success(let other): role = .failed("ROLE answered \(other)")
                    case .failure(let error): role = .failed("\(error)")
                    }
                    next { machine, now in machine.roleChecked(round: round, role: role, now: now) }
                }
            case .use(let address, let seconds, let changed):
                let metadata: Logger.Metadata = [
                    "primary": "\(address)", "foundIn": "\((seconds * 1000).rounded() / 1000) s",
                ]
                if changed {
                    logger.notice("Redis failed over: following the new primary", metadata: metadata)
                } else {
                    logger.info("Redis primary found through Sentinel", metadata: metadata)
                }
                guard acknowledgement.replicas > 0 else { return proceed() }
                let sentinel = state.withLock { $0.sentinel?.preferred ?? 0 }
                let base = baseConfiguration
                let read: @Sendable (SentinelMachine.Address?) -> Void = { [weak self] replica in
                    guard let self else { return }
                    queue.async { [self] in
                        state.withLock { $0.readerReplica = replica }
                        logger.info("reading the stream", metadata: ["on": "\(replica.map { "replica \($0)" } ?? "the primary")"])
                        proceed()
                    }
                }
                Self.once(sentinelConfigurations[sentinel], ["SENTINEL", "replicas", sentinelMaster]) { answer in
                    guard let replica = (try? answer.get()).flatMap(SentinelMachine.readableReplica(in:)) else {
                        return read(nil)
                    }
                    // Only a replica this node can reach and that answers as one; otherwise the primary.
                    Self.once(Self.configuration(base, at: replica), ["ROLE"]) { role in
                        guard case .success(.array(let parts)) = role, parts.first?.string == "slave" else {
                            return read(nil)
                        }
                        read(replica)
                    }
                }
            case .fail(let reason):
                let now = linkClock.now()
                let actions = state.withLock {
                    $0.link.reconnectFailed(
                        generation: generation, reason: reason, now: now, jitter: Double.random(in: 0.8...1.2))
                }
                logger.warning("no Redis primary found through Sentinel", metadata: ["error": "\(reason)"])
                perform(actions)
            }
        }
    }

    /// Connects, sends one command (waiting at most the connect timeout for its answer) and closes; `completion` gets
    /// the reply (an error reply as a failure) on the connection's queue.
    private static func once(
        _ configuration: RedisConnection.Configuration, _ command: [String],
        completion: @escaping @Sendable (Result<RedisReply, RedisError>) -> Void
    ) {
        connect(configuration) { connected in
            switch connected {
            case .failure(let error): completion(.failure(error))
            case .success(let connection):
                connection.send(command, timeout: configuration.connectTimeout) { result in
                    connection.close()
                    if case .success(.error(let message)) = result {
                        return completion(.failure(.protocolError("Redis answered \(message)")))
                    }
                    completion(result)
                }
            }
        }
    }
}
