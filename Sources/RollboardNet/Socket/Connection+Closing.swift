#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Logging
import Synchronization

extension Connection {
    /// Closes politely: sends close_notify under TLS, flushes what is buffered, half-closes and waits for the
    /// peer's FIN (bounded by the close timeout), then releases everything.
    package func close() {
        dispatchPrecondition(condition: .onQueue(queue))
        switch state {
        case .active:
            break
        case .connecting, .handshaking:
            finish()
            return
        case .closing, .closed:
            return
        }
        tls?.shutdown()
        sendTLSOutput()
        beginClosing()
    }

    func beginClosing() {
        state = .closing(deadline: .now + options.closeTimeout)
        undeliveredWhenClosing = .max
        flushNow()
    }

    /// Bytes in the kernel's send queue the peer has not acknowledged.
    func unacknowledgedBytes() -> Int {
        var count: Int32 = 0
        #if canImport(Glibc)
        guard ioctl(fd, UInt(TIOCOUTQ), &count) == 0 else { return 0 }
        #endif
        return Int(count)
    }

    /// Closes at once, dropping anything buffered.
    package func abort() {
        dispatchPrecondition(condition: .onQueue(queue))
        finish()
    }

    /// Closes at once because of `failure` (kept if an earlier one was recorded).
    func fail(_ failure: ConnectionFailure) {
        if self.failure == nil { self.failure = failure }
        abort()
    }

    /// Called by the loop's timer: enforces the handshake and close deadlines, then lets the handler tick.
    func tick(now: ContinuousClock.Instant) {
        switch state {
        case .connecting(let deadline):
            if now >= deadline {
                logger.debug("connect timed out")
                fail(.timedOut("no connection to \(remote ?? "the peer") within \(options.connectTimeout)"))
            }
        case .handshaking(let deadline):
            if now >= deadline {
                logger.debug("TLS handshake timed out")
                fail(.timedOut("no TLS handshake within \(options.tlsHandshakeTimeout)"))
            }
        case .closing(let deadline):
            guard now >= deadline else { return }
            let undelivered = outbound.count + unacknowledgedBytes()
            if undelivered > 0, undelivered < undeliveredWhenClosing {
                undeliveredWhenClosing = undelivered
                state = .closing(deadline: now + options.closeTimeout)
            } else {
                finish()
            }
        case .active:
            handler?.connection(self, tick: now)
        case .closed:
            break
        }
    }

    /// Server shutdown: the handler says goodbye in its protocol's way.
    func shutDown() {
        dispatchPrecondition(condition: .onQueue(queue))
        switch state {
        case .active:
            handler?.connectionShouldShutDown(self)
        case .connecting, .handshaking:
            finish()
        case .closing, .closed:
            break
        }
    }

    func finish() {
        if case .closed = state { return }
        state = .closed
        outbound.removeAll()
        batch = []
        buffered.store(0, ordering: .relaxed)
        if let readSource {
            if isReadSuspended { readSource.resume() }  // a suspended source must be resumed to be cancelled
            readSource.cancel()
            self.readSource = nil
        }
        if let writeSource {
            if !isWriteArmed { writeSource.resume() }
            writeSource.cancel()
            self.writeSource = nil
        }
        isReadSuspended = false
        isWriteArmed = false
        tls = nil
        if liveSources == 0 { Glibc.close(fd) }
        let handler = self.handler
        self.handler = nil
        handler?.connectionDidClose(self)
        loop.unregister(self)
        onClose()
    }

    /// A source finished cancelling; the descriptor is closed once no source watches it.
    func sourceCancelled() {
        liveSources -= 1
        if liveSources == 0, case .closed = state {
            Glibc.close(fd)
        }
    }
}
