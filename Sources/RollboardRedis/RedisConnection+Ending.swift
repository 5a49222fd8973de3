import Dispatch
import RollboardNet
public import Logging
import Synchronization

extension RedisConnection {
    /// Ends the connection with `error`: closes the transport and releases the timer, fails every waiting completion, then
    /// fails the connect under way or (unless `close()` asked for it) tells the disconnect handler. Runs once.
    func finish(_ error: RedisError, byClose: Bool = false) {
        dispatchPrecondition(condition: .onQueue(queue))
        let wasReady: Bool
        switch state {
        case .closed: return
        case .ready: wasReady = true
        case .idle, .connecting, .tlsHandshaking, .preparing: wasReady = false
        }
        state = .closed
        lifecycle.store(Lifecycle.ended, ordering: .releasing)
        let link = self.link
        self.link = nil
        if byClose {
            link?.close()  // close_notify under TLS, what is buffered, then the FIN (bounded by its close timeout)
        } else {
            link?.abort()
        }
        timer?.cancel()
        timer = nil
        timerDeadline = nil
        connectDeadline = nil
        addresses = []
        let waiting = pending[pendingHead...].compactMap { $0 }
        pending = []
        pendingHead = 0
        let connectCompletion = self.connectCompletion
        self.connectCompletion = nil
        logger.debug("Redis connection ended", metadata: ["reason": "\(error)"])

        for command in waiting {
            command.completion(.failure(error))
        }
        if let connectCompletion {
            // A connection that never came up failed to connect, whatever broke it (unless close() stopped it).
            let connectError = !byClose && error.kind == .closed ? RedisError.connectFailed(error.message) : error
            connectCompletion(.failure(connectError))
        } else if wasReady, !byClose {
            let handler = disconnectHandler.withLock { handler in
                defer { handler = nil }
                return handler
            }
            handler?(error)
        }
    }
}
