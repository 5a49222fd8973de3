package import RollboardNet
import Logging

/// The transport's events, on the connection's queue. Events of a transport that is no longer `link` (one this
/// connection has already closed or given up on) are ignored.
extension RedisConnection: ConnectionHandler {
    package func connectionDidConnect(_ connection: Connection) {
        guard connection === link, case .connecting = state else { return }
        logger.debug("TCP connected", metadata: ["address": "\(connection.remote ?? "")"])
        if configuration.url.usesTLS { state = .tlsHandshaking }
    }

    package func connectionDidBecomeActive(_ connection: Connection) {
        guard connection === link else { return }
        if let version = connection.tlsVersion {
            logger.debug("TLS established", metadata: ["version": "\(version)"])
        }
        startSetup()
    }

    package func connection(_ connection: Connection, didRead bytes: UnsafeRawBufferPointer) {
        guard connection === link else { return }
        parse(bytes)
    }

    package func connectionDidReadEOF(_ connection: Connection) {
        guard connection === link else { return }
        finish(.closed(connection.isSecure ? "the server closed the TLS session" : "the server closed the connection"))
    }

    package func connectionDidDrain(_ connection: Connection) {}

    package func connection(_ connection: Connection, tick now: ContinuousClock.Instant) {}

    package func connectionShouldShutDown(_ connection: Connection) {
        connection.close()
    }

    /// The transport ended by itself: a failed TCP connect moves on to the next address; anything else ends this
    /// connection with the transport's reason.
    package func connectionDidClose(_ connection: Connection) {
        guard connection === link else { return }
        link = nil
        let failure = connection.failure
        if case .connecting = state {
            lastConnectFailure = failure?.message ?? "the server closed the connection"
            connectNextAddress()
            return
        }
        switch failure {
        case .certificateRejected(let reason)?:
            finish(.tlsFailed("the server's certificate was rejected: \(reason)"))
        case .tlsFailed(let reason)?:
            finish(.tlsFailed(reason))
        case .connectFailed(let reason)?, .timedOut(let reason)?:
            finish(.connectFailed(reason))
        case .ioFailed(let reason)?:
            finish(.closed("the connection to the server failed: \(reason)"))
        case nil:
            finish(.closed("the server closed the connection"))
        }
    }
}
