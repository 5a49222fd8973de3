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
            addresses = try RedisSocket.resolve(host: url.host, port: url.port)
        } catch {
            finish(error)
            return
        }
        connectNextAddress()
    }

    func connectNextAddress() {
        guard case .connecting = state else { return }
        while !addresses.isEmpty {
            let address = addresses.removeFirst()
            do {
                let socket = try RedisSocket(connectingTo: address, queue: queue)
                self.socket = socket
                socket.armWrite { self.connectFinished(address) }
                return
            } catch {
                lastConnectFailure = error.message
            }
        }
        finish(.connectFailed(lastConnectFailure ?? "no address found for \(configuration.url.host)"))
    }

    /// The socket became writable: the TCP connect to `address` ended, one way or the other.
    func connectFinished(_ address: RedisSocket.Address) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard case .connecting = state, let socket else { return }
        if let reason = socket.connectFailure() {
            socket.close()
            self.socket = nil
            lastConnectFailure = "cannot connect to \(address.text): \(reason)"
            connectNextAddress()
            return
        }
        socket.disarmWrite()
        logger.debug("TCP connected", metadata: ["address": "\(address.text)"])
        socket.startReading { self.readable() }
        if configuration.url.usesTLS {
            startTLS()
        } else {
            startSetup()
        }
    }

    func startTLS() {
        let host = configuration.url.host
        do {
            let context = try TLSContext(client: configuration.tls)
            tls = try TLSConnection(
                context: context, isServer: false, serverName: host,
                expectedHostName: configuration.tls.verifiesCertificate ? host : nil)
        } catch {
            finish(.tlsFailed("\(error)"))
            return
        }
        state = .tlsHandshaking
        advanceHandshake()
    }

    func advanceHandshake() {
        guard let tls, case .tlsHandshaking = state else { return }
        let complete: Bool
        do {
            complete = try tls.handshake()
        } catch {
            let reason = tls.certificateRejection.map { "the server's certificate was rejected: \($0)" } ?? error.detail
            queueTLSOutput()  // the alert, sent if the socket takes it at once
            flushNow()
            finish(.tlsFailed(reason))
            return
        }
        queueTLSOutput()
        flushNow()
        guard complete else { return }
        logger.debug("TLS established", metadata: ["version": "\(tls.protocolVersion)", "cipher": "\(tls.cipherName)"])
        startSetup()
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
        flushNow()
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
