#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Logging
import Synchronization

extension Connection {
    /// Stops or restarts reading on the handler's behalf (e.g. too many pipelined requests in flight). Reading
    /// also pauses by itself while the connection is not writable.
    package func setReading(_ enabled: Bool) {
        dispatchPrecondition(condition: .onQueue(queue))
        isReadPausedByHandler = !enabled
        updateReadSource()
    }

    func updateReadSource() {
        guard let readSource else { return }
        let shouldRead = !isReadPausedByHandler && isWritable
        if shouldRead, isReadSuspended {
            isReadSuspended = false
            readSource.resume()
        } else if !shouldRead, !isReadSuspended {
            isReadSuspended = true
            readSource.suspend()
        }
    }

    func readable() {
        dispatchPrecondition(condition: .onQueue(queue))
        let buffer = loop.readBuffer
        let count = recv(fd, buffer.baseAddress, buffer.count, 0)
        if count > 0 {
            defersFlush = true
            received(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
            defersFlush = false
            flushNow()
            if case .closing = state { queue.async { if case .closing = self.state { self.readable() } } }  // the peer's RST may raise no new event
        } else if count == 0 {
            readEOF()
        } else if errno != EAGAIN, errno != EWOULDBLOCK, errno != EINTR {
            let reason = errnoText()
            logger.debug("read failed", metadata: ["error": "\(reason)"])
            fail(.ioFailed("cannot read: \(reason)"))
        }
    }

    func received(_ bytes: UnsafeRawBufferPointer) {
        switch state {
        case .connecting, .closing, .closed:
            return  // draining until the peer's FIN
        case .handshaking, .active:
            break
        }
        guard let tls else {
            handler?.connection(self, didRead: bytes)
            return
        }
        if case .handshaking = state, !isTLSStarted, !isOutbound, Self.looksLikePlainHTTP(bytes) {
            logger.debug("plain HTTP on the TLS port; answered in clear text")
            outbound.append(Self.plainHTTPOnTLSPortResponse)
            didAppend()
            beginClosing()
            return
        }
        isTLSStarted = true
        tls.receiveFromNetwork(bytes)
        if case .handshaking = state {
            guard advanceHandshake(tls) else { return }
        }
        do {
            let status = try tls.readPlaintext(into: loop.plaintextBuffer) { plaintext in
                guard case .active = state else { return }
                handler?.connection(self, didRead: plaintext)
            }
            if case .active = state { sendTLSOutput() }
            if status == .closed { readEOF() }
        } catch {
            logger.debug("TLS read failed", metadata: ["error": "\(error)"])
            sendTLSOutput()
            fail(.tlsFailed("cannot read a TLS record"))
        }
    }

    /// Takes the TLS handshake one step further (the client's first step sends its hello); `true` once it is
    /// complete and the handler was told the connection is active. A failure sends the alert and closes.
    func advanceHandshake(_ tls: TLSConnection) -> Bool {
        let complete: Bool
        do {
            complete = try tls.handshake()
        } catch {
            logger.debug("TLS handshake failed", metadata: ["error": "\(error)"])
            if isOutbound {
                failure = tls.certificateRejection.map { .certificateRejected($0) } ?? .tlsFailed(error.detail)
            }
            sendTLSOutput()  // the alert
            beginClosing()
            if isOutbound { finish() }  // its owner hears of the failure now, not once the peer has closed too
            return false
        }
        sendTLSOutput()
        guard complete else { return false }
        state = .active
        handler?.connectionDidBecomeActive(self)
        return true
    }

    /// Whether the first bytes on a TLS port are a plain HTTP request line (a TLS handshake starts with 0x16).
    static func looksLikePlainHTTP(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let methods = ["GET ", "HEAD", "POST", "PUT ", "DELE", "OPTI", "PATC", "CONN", "TRAC"]
        guard bytes.count >= 4 else { return false }
        let start = String(decoding: bytes.prefix(4), as: UTF8.self)
        return methods.contains(start)
    }

    /// What a browser or curl that spoke plain HTTP to the TLS port reads, unencrypted, before the connection closes.
    static let plainHTTPOnTLSPortResponse: [UInt8] = {
        let body = """
            {"error":"tls_required","detail":"this port speaks HTTPS: use https:// rather than http://"}

            """
        return Array(
            ("HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n"
                + "Connection: close\r\n\r\n" + body).utf8)
    }()

    func readEOF() {
        if let readSource {
            if isReadSuspended {
                isReadSuspended = false
                readSource.resume()
            }
            readSource.cancel()
            self.readSource = nil
        }
        switch state {
        case .closing:
            if sentFIN { finish() }
        case .closed:
            break
        case .connecting, .handshaking:
            if isOutbound, failure == nil {
                failure = .tlsFailed("the peer closed the connection during the TLS handshake")
            }
            finish()
        case .active:
            handler?.connectionDidReadEOF(self)
        }
    }
}
