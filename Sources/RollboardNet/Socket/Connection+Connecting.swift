#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
package import Logging

extension Connection {
    /// Opens a non-blocking socket and starts connecting to `address`; from then on the connection is the same as
    /// an accepted one, with `tls` (a client-side session) in place of the server's.
    ///
    /// `handler` hears `connectionDidConnect` once TCP is up, `connectionDidBecomeActive` once the TLS handshake
    /// (which this side starts) is complete, or at once in plain mode; a connection that fails closes with
    /// `failure` set. A connect that fails straight away throws `.connectFailed`. Callable from any thread.
    package static func connect(
        to address: SocketAddress, loop: EventLoop, tls: TLSConnection?, options: Options = Options(), logger: Logger,
        handler: any ConnectionHandler, onClose: @escaping @Sendable () -> Void = {}
    ) throws(ConnectionFailure) -> Connection {
        let kind = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let fd = socket(Int32(address.storage.ss_family), kind, 0)
        guard fd >= 0 else {
            throw .connectFailed("cannot open a socket: \(errnoText())")
        }
        var storage = address.storage
        let result = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, address.length) }
        }
        // EINTR: the connect goes on in the background, as with EINPROGRESS.
        if result != 0, errno != EINPROGRESS, errno != EINTR {
            let reason = errnoText()
            Glibc.close(fd)
            throw .connectFailed("cannot connect to \(address.text): \(reason)")
        }
        let connection = Connection(
            fd: fd, loop: loop, session: tls, options: options, logger: logger, peerAddress: nil,
            state: .connecting(deadline: .now + options.connectTimeout), remote: address.text, onClose: onClose)
        // Handed over to the queue, where alone it is used from then on.
        nonisolated(unsafe) let handler = handler
        connection.execute { $0.startConnecting(handler) }
        return connection
    }

    /// Registers with the loop (whose tick enforces the connect deadline) and waits for the socket to become
    /// writable, which ends the connect one way or the other.
    private func startConnecting(_ handler: any ConnectionHandler) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard case .connecting = state else { return }
        self.handler = handler
        loop.register(self)
        // Kept for the flushes after the connect, so it checks the state.
        let source = makeWriteSource { self.outboundWritable() }
        writeSource = source
        isWriteArmed = true
        source.resume()
    }

    private func outboundWritable() {
        if case .connecting = state {
            connectEnded()
        } else {
            flushNow()
        }
    }

    /// The non-blocking connect ended: on success the connection reads, and starts the TLS handshake if it has one.
    private func connectEnded() {
        var code: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        if getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length) != 0 { code = errno }
        guard code == 0 else {
            logger.debug("connect failed", metadata: ["error": "\(errnoText(code))"])
            fail(.connectFailed("cannot connect to \(remote ?? "the peer"): \(errnoText(code))"))
            return
        }
        disarmWriteSource()
        state = tls == nil ? .active : .handshaking(deadline: .now + options.tlsHandshakeTimeout)
        handler?.connectionDidConnect(self)
        guard case .handshaking = state, let tls else {
            if case .active = state { beginReading() }
            return
        }
        beginReading()
        isTLSStarted = true
        _ = advanceHandshake(tls)
    }
}
