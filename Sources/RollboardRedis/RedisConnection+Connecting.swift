import Dispatch
import RollboardNet
public import Logging
import Synchronization

extension RedisConnection {
    func startConnecting(_ completion: @escaping @Sendable (Result<Void, RedisError>) -> Void) {
        dispatchPrecondition(condition: .onQueue(queue))
        switch state {
        case .idle:
            break
        case .closed:
            completion(.failure(.closed("the connection was closed")))
            return
        case .connecting, .tlsHandshaking, .preparing, .ready:
            completion(.failure(.connectFailed("connect was already called on this connection")))
            return
        }
        let url = configuration.url
        connectCompletion = completion
        state = .connecting
        let deadline = Self.deadline(after: configuration.connectTimeout)
        connectDeadline = deadline
        scheduleTimer(deadline)
        do {
            addresses = try SocketAddress.resolve(host: url.host, port: url.port)
        } catch {
            finish(.connectFailed(error.message))
            return
        }
        connectNextAddress()
    }

    /// Connects to the next address not tried yet (for `rediss://` with a fresh client TLS session), or fails the
    /// connect with the last reason once none is left.
    func connectNextAddress() {
        guard case .connecting = state else { return }
        while !addresses.isEmpty {
            let address = addresses.removeFirst()
            let session: TLSConnection?
            do {
                session = try makeTLSSession()
            } catch {
                finish(.tlsFailed("\(error)"))
                return
            }
            do {
                link = try Connection.connect(to: address, loop: loop, tls: session, logger: logger, handler: self)
                return
            } catch {
                lastConnectFailure = error.message
            }
        }
        finish(.connectFailed(lastConnectFailure ?? "no address found for \(configuration.url.host)"))
    }

    /// The client side of TLS for `rediss://`: SNI and, unless turned off, the certificate must be for the host.
    func makeTLSSession() throws(TLSError) -> TLSConnection? {
        guard configuration.url.usesTLS else { return nil }
        let host = configuration.url.host
        let context = try TLSContext(client: configuration.tls)
        return try TLSConnection(
            context: context, isServer: false, serverName: host,
            expectedHostName: configuration.tls.verifiesCertificate ? host : nil)
    }

    /// Sends the commands the URL and configuration call for, or becomes ready at once when there are none.
    func startSetup() {
        let url = configuration.url
        var commands: [(name: String, arguments: [String])] = []
        if let password = url.password {
            commands.append(("AUTH", url.username.map { ["AUTH", $0, password] } ?? ["AUTH", password]))
        }
        if url.database != 0 {
            commands.append(("SELECT", ["SELECT", String(url.database)]))
        }
        if let name = configuration.name {
            commands.append(("CLIENT SETNAME", ["CLIENT", "SETNAME", name]))
        }
        guard !commands.isEmpty else {
            becomeReady()
            return
        }
        state = .preparing(remaining: commands.count)
        for command in commands {
            let name = command.name
            appendCommand(command.arguments.map { Array($0.utf8) }, deadline: connectDeadline ?? .distantFuture) {
                self.setupReplied(name, $0)
            }
        }
    }

    func setupReplied(_ command: String, _ result: Result<RedisReply, RedisError>) {
        guard case .preparing(let remaining) = state else { return }
        switch result {
        case .success(.error(let message)):
            finish(.authFailed("\(command) was refused: \(message)"))
        case .success:
            if remaining == 1 {
                becomeReady()
            } else {
                state = .preparing(remaining: remaining - 1)
            }
        case .failure:
            break  // the connection is already ending, and the connect fails with it
        }
    }

    func becomeReady() {
        state = .ready
        connectDeadline = nil
        lastConnectFailure = nil
        // Stays `ended` if close() was called meanwhile: its block is queued and ends the connection next.
        _ = lifecycle.compareExchange(
            expected: Lifecycle.notConnected, desired: Lifecycle.ready, ordering: .acquiringAndReleasing)
        logger.debug("Redis connection ready")
        let completion = connectCompletion
        connectCompletion = nil
        completion?(.success(()))
    }
}
