#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Logging
import Synchronization

#if canImport(Glibc)
private let systemSend = Glibc.send
#else
private let systemSend = Darwin.send
#endif

extension Connection {
    /// Sends application bytes (encrypted first under TLS). Ignored unless the connection is active.
    ///
    /// When nothing waits before them and no read is in progress, the bytes go straight to the socket (through the
    /// loop's scratch buffer under TLS) and only what the socket does not take is kept; otherwise they queue behind
    /// the rest.
    package func send(_ bytes: [UInt8]) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard case .active = state, !bytes.isEmpty else { return }
        var writesNow = !defersFlush && outbound.isEmpty && !isWriteArmed
        var failed = false
        func take(_ piece: UnsafeRawBufferPointer) {
            if writesNow {
                guard let rest = write(piece) else {
                    failed = true
                    writesNow = false
                    return
                }
                if rest.isEmpty { return }
                writesNow = false
                outbound.append(Array(rest))
                armWriteSource()
            } else if !failed {
                outbound.append(Array(piece))
            }
        }
        if let tls {
            let failure = bytes.withUnsafeBytes { raw -> TLSError? in
                do throws(TLSError) {
                    try tls.writePlaintext(raw, scratch: loop.ciphertextBuffer, output: take)
                    return nil
                } catch {
                    return error
                }
            }
            if let failure {
                logger.debug("TLS write failed", metadata: ["error": "\(failure)"])
                fail(.tlsFailed("cannot write a TLS record"))
                return
            }
        } else {
            bytes.withUnsafeBytes(take)
        }
        if failed {
            abort()
            return
        }
        didAppend()
    }

    /// Lets `write` append application bytes to the batch of this turn of the queue, which goes out in one `send`
    /// (one run of TLS records) once the blocks already queued have run: for a client pipelining many small requests.
    package func appendToBatch(_ write: (inout [UInt8]) -> Void) {
        dispatchPrecondition(condition: .onQueue(queue))
        let wasEmpty = batch.isEmpty
        write(&batch)
        guard wasEmpty, !batch.isEmpty else { return }
        queue.async {
            var bytes: [UInt8] = []
            swap(&bytes, &self.batch)
            self.send(bytes)
        }
    }

    /// Writes `bytes` to the socket; returns what it did not take (empty: all of it), or `nil` on a failure.
    func write(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        var offset = 0
        while offset < bytes.count {
            let written = systemSend(fd, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            if written >= 0 {
                offset += written
                continue
            }
            switch errno {
            case EINTR:
                continue
            case EAGAIN, EWOULDBLOCK:
                return UnsafeRawBufferPointer(rebasing: bytes[offset...])
            default:
                let reason = errnoText()
                logger.debug("write failed", metadata: ["error": "\(reason)"])
                failure = failure ?? .ioFailed("cannot write: \(reason)")
                return nil
            }
        }
        return UnsafeRawBufferPointer(rebasing: bytes[bytes.count...])
    }

    func sendTLSOutput() {
        guard let tls else { return }
        while let ciphertext = tls.takeNetworkOutput() {
            outbound.append(ciphertext)
        }
        didAppend()
    }

    func didAppend() {
        let count = outbound.count
        buffered.store(count, ordering: .relaxed)
        if count > options.maxBufferedBytes {
            logger.debug("peer is not reading; dropping the connection", metadata: ["buffered": "\(count)"])
            fail(.ioFailed("the peer is not reading: \(count) bytes buffered"))
            return
        }
        if count > options.highWatermark, isWritable {
            writable.store(false, ordering: .relaxed)
            updateReadSource()
        }
        scheduleFlush()
    }

    func scheduleFlush() {
        guard !defersFlush, !isFlushScheduled, !isWriteArmed, !outbound.isEmpty else { return }
        isFlushScheduled = true
        queue.async {
            self.isFlushScheduled = false
            self.flushNow()
        }
    }

    /// Writes as much as the socket takes; arms the write source for the rest.
    func flushNow() {
        dispatchPrecondition(condition: .onQueue(queue))
        if case .closed = state { return }
        switch outbound.send(to: fd) {
        case nil:
            break
        case EAGAIN?, EWOULDBLOCK?:
            armWriteSource()
            updateBuffered()
            return
        case let code?:
            logger.debug("write failed", metadata: ["error": "\(errnoText(code))"])
            fail(.ioFailed("cannot write: \(errnoText(code))"))
            return
        }
        disarmWriteSource()
        updateBuffered()
        // The drain callback inside `updateBuffered` may have sent more and closed; the FIN waits for those bytes.
        guard outbound.isEmpty else { return }
        if case .closing = state, !sentFIN {
            sentFIN = true
            shutdown(fd, Int32(SHUT_WR))
            if readSource == nil { finish() }
        }
    }

    func updateBuffered() {
        let count = outbound.count
        buffered.store(count, ordering: .relaxed)
        if !isWritable, count <= options.lowWatermark {
            writable.store(true, ordering: .relaxed)
            updateReadSource()
            if case .active = state { handler?.connectionDidDrain(self) }
        }
    }

    func armWriteSource() {
        guard !isWriteArmed else { return }
        if writeSource == nil {
            writeSource = makeWriteSource { self.flushNow() }
        }
        isWriteArmed = true
        writeSource?.resume()
    }

    /// A suspended write source on the descriptor calling `handler`, counted in `liveSources` until cancelled.
    func makeWriteSource(_ handler: @escaping @Sendable () -> Void) -> any DispatchSourceWrite {
        let source = DispatchSource.makeWriteSource(fileDescriptor: fd, queue: queue)
        source.setEventHandler(handler: handler)
        source.setCancelHandler { self.sourceCancelled() }
        liveSources += 1
        return source
    }

    func disarmWriteSource() {
        guard isWriteArmed else { return }
        isWriteArmed = false
        writeSource?.suspend()
    }
}
