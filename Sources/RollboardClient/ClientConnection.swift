public import RollboardNet
import Dispatch
import Logging

/// A TCP connection, optionally over TLS, for command-line tools and tests, with a blocking API over the one socket
/// stack: an outbound `Connection` (TLS over memory BIOs, as on the server) on a shared client event loop, whose
/// events a `ClientInbox` hands to the caller's thread. Each call waits there, at most `timeout` seconds.
///
/// Used from one thread at a time, never from an event loop's queue.
public final class ClientConnection {
    /// The loop every client connection of the process runs on.
    private static let loop = EventLoop(label: "rollboard.client", tickInterval: .milliseconds(250))
    private static let logger = Logger(label: "rollboard.client")

    private let connection: Connection
    private let inbox: ClientInbox
    private let timeout: Double

    /// Connects to `host:port` (a name or an IPv4/IPv6 literal, each resolved address in turn) and, with `tls`,
    /// completes a TLS handshake, within `timeout` seconds.
    public init(host: String, port: Int, tls: ClientTLSOptions?, timeout: Double = 10) throws {
        self.timeout = timeout
        let addresses: [SocketAddress]
        do {
            addresses = try SocketAddress.resolve(host: host, port: port)
        } catch {
            throw ClientError(error.message)
        }
        var options = Connection.Options()
        options.connectTimeout = .milliseconds(Int(timeout * 1000))
        options.tlsHandshakeTimeout = options.connectTimeout
        var lastFailure = ClientError("no address found for \(host)")
        for address in addresses {
            let inbox = ClientInbox()
            let connection: Connection
            do {
                connection = try Connection.connect(
                    to: address, loop: Self.loop, tls: try Self.session(host: host, options: tls), options: options,
                    logger: Self.logger, handler: inbox)
            } catch let failure as ConnectionFailure {
                lastFailure = ClientError(failure.message)
                continue
            }
            let outcome = inbox.wait(until: Self.deadline(after: timeout)) { state -> Result<Void, ConnectionFailure>? in
                if state.isActive { return .success(()) }
                return state.isClosed ? .failure(state.failure ?? .ioFailed("the server closed the connection")) : nil
            }
            switch outcome {
            case .success?:
                self.connection = connection
                self.inbox = inbox
                return
            case .failure(.connectFailed(let message))?:
                lastFailure = ClientError(message)
            case .failure(let failure)?:
                throw Self.clientError(failure, handshaking: true)
            case nil:
                connection.execute { $0.abort() }
                throw ClientError.timedOut
            }
        }
        throw lastFailure
    }

    deinit {
        close()
    }

    /// The negotiated TLS protocol name (e.g. `TLSv1.3`), or `nil` without TLS.
    public var tlsVersion: String? {
        inbox.wait(until: .now()) { $0.tlsVersion }
    }

    /// Queues `bytes` for the server, first waiting while more than the high watermark is still unsent. A write that
    /// fails later shows in the next `read`.
    public func write(_ bytes: [UInt8]) throws {
        let connection = self.connection
        let ready = inbox.wait(until: Self.deadline(after: timeout)) { state -> Bool? in
            if state.isClosed { return false }
            return connection.isWritable ? true : nil
        }
        guard let ready else { throw ClientError.timedOut }
        guard ready else { throw inbox.wait(until: .now()) { Self.clientError($0.failure, handshaking: false) }! }
        connection.execute { $0.send(bytes) }
    }

    /// Waits for up to `maximum` bytes (reading from the socket only while it waits); an empty result means the server closed the connection (a reset included).
    public func read(maximum: Int = 65_536) throws -> [UInt8] {
        if inbox.wait(until: .now(), { $0.received.isEmpty ? true : nil }) == true {
            connection.execute { $0.setReading(true) }
        }
        let result = inbox.wait(until: Self.deadline(after: timeout)) { state -> Result<[UInt8], ClientError>? in
            if !state.received.isEmpty {
                let count = min(maximum, state.received.count)
                let bytes = Array(state.received[..<count])
                state.received.removeFirst(count)
                return .success(bytes)
            }
            switch state.failure {
            case .ioFailed?, nil:
                return state.readEOF || state.isClosed ? .success([]) : nil
            case let failure?:
                return .failure(Self.clientError(failure, handshaking: false))
            }
        }
        guard let result else { throw ClientError.timedOut }
        return try result.get()
    }

    /// Closes politely (TLS close_notify, then the FIN) on the loop; returns at once. Idempotent.
    public func close() {
        connection.execute { $0.close() }
    }

    /// A client TLS session: a name is sent as SNI and, when verifying, required of the certificate; an IP literal
    /// is neither.
    private static func session(host: String, options: ClientTLSOptions?) throws -> TLSConnection? {
        guard let options else { return nil }
        do {
            let context = try TLSContext(client: options)
            let expected = options.verifiesCertificate && !TLSConnection.isIPAddress(host) ? host : nil
            return try TLSConnection(context: context, isServer: false, serverName: host, expectedHostName: expected)
        } catch {
            throw ClientError("cannot set up TLS: \(error)")
        }
    }

    private static func clientError(_ failure: ConnectionFailure?, handshaking: Bool) -> ClientError {
        switch failure {
        case .certificateRejected(let reason)?:
            ClientError.certificateRejected(reason)
        case .tlsFailed(let message)?:
            ClientError(handshaking ? "TLS handshake failed: \(message)" : message)
        case .timedOut?:
            ClientError.timedOut
        case let failure?:
            ClientError(failure.message)
        case nil:
            ClientError.closedEarly
        }
    }

    private static func deadline(after seconds: Double) -> DispatchTime {
        .now() + max(0, min(seconds, 365 * 24 * 3600))
    }
}

@available(*, unavailable)
extension ClientConnection: Sendable {}
