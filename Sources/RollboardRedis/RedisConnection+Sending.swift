import Dispatch
import RollboardNet
public import Logging
import Synchronization

extension RedisConnection {
    func enqueue(
        _ arguments: [[UInt8]], deadline: DispatchTime,
        completion: @escaping @Sendable (Result<RedisReply, RedisError>) -> Void
    ) {
        dispatchPrecondition(condition: .onQueue(queue))
        switch state {
        case .ready:
            break
        case .idle, .connecting, .tlsHandshaking, .preparing:
            completion(.failure(.closed("not connected yet: send commands once connect has succeeded")))
            return
        case .closed:
            completion(.failure(.closed("the connection is closed")))
            return
        }
        guard !arguments.isEmpty else {
            completion(.failure(.protocolError("a command needs at least one argument")))
            return
        }
        appendCommand(arguments, deadline: deadline, completion: completion)
        scheduleFlush()
    }

    func appendCommand(
        _ arguments: [[UInt8]], deadline: DispatchTime, completion: @escaping (Result<RedisReply, RedisError>) -> Void
    ) {
        pending.append(Pending(deadline: deadline, completion: completion))
        RedisCommandEncoder.encode(arguments, into: &unsent)
        scheduleTimer(deadline)
    }

    /// Flushes once the blocks already queued have run, so commands sent together go out together.
    func scheduleFlush() {
        guard !isFlushScheduled else { return }
        isFlushScheduled = true
        queue.async {
            self.isFlushScheduled = false
            self.flushNow()
        }
    }

    /// Moves unsent commands to the outbound buffer (encrypted under TLS), then writes as much as the socket takes;
    /// the write source is armed for the rest.
    func flushNow() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard let socket else { return }
        if !unsent.isEmpty {
            var plaintext: [UInt8] = []
            swap(&plaintext, &unsent)
            if let tls {
                let failure = plaintext.withUnsafeBytes { bytes -> TLSError? in
                    do throws(TLSError) {
                        try tls.writePlaintext(bytes, scratch: ciphertextBuffer) { outbound.append(Array($0)) }
                        return nil
                    } catch {
                        return error
                    }
                }
                if let failure {
                    finish(.tlsFailed("cannot encrypt a command: \(failure.detail)"))
                    return
                }
            } else {
                outbound.append(plaintext)
            }
        }
        switch socket.write(&outbound) {
        case .done:
            socket.disarmWrite()
        case .wouldBlock:
            socket.armWrite { self.flushNow() }
        case .failed(let reason):
            finish(.closed("cannot write to the server: \(reason)"))
        }
    }

    func queueTLSOutput() {
        guard let tls else { return }
        while let ciphertext = tls.takeNetworkOutput() {
            outbound.append(ciphertext)
        }
    }
}
