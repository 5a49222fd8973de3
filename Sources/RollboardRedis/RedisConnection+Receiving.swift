import Dispatch
import RollboardNet
public import Logging
import Synchronization

extension RedisConnection {
    func readable() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard let socket else { return }
        switch socket.read(into: readBuffer) {
        case .bytes(let count):
            received(UnsafeRawBufferPointer(rebasing: readBuffer[..<count]))
        case .wouldBlock:
            break
        case .endOfFile:
            finish(.closed("the server closed the connection"))
        case .failed(let reason):
            finish(.closed("cannot read from the server: \(reason)"))
        }
    }

    func received(_ bytes: UnsafeRawBufferPointer) {
        guard let tls else {
            parse(bytes)
            return
        }
        tls.receiveFromNetwork(bytes)
        if case .tlsHandshaking = state {
            advanceHandshake()
            guard tls.isHandshakeComplete, self.tls != nil else { return }
        }
        do {
            let status = try tls.readPlaintext(into: plaintextBuffer) { plaintext in self.parse(plaintext) }
            guard self.tls != nil else { return }  // ended while parsing
            if status == .closed {
                finish(.closed("the server closed the TLS session"))
                return
            }
            queueTLSOutput()  // e.g. a reply to a key update
            if !outbound.isEmpty { flushNow() }
        } catch {
            finish(.tlsFailed("cannot read a TLS record: \(error)"))
        }
    }

    /// Hands bytes from the server to the reply reader and each reply to the oldest waiting command.
    func parse(_ bytes: UnsafeRawBufferPointer) {
        if case .closed = state { return }
        let replies: [RedisReply]
        do {
            replies = try reader.feed(bytes)
        } catch {
            finish(error)
            return
        }
        for reply in replies {
            guard let command = popPending() else {
                finish(.protocolError("the server sent a reply to no command"))
                return
            }
            command.completion(.success(reply))
            if case .closed = state { return }
        }
    }

    func popPending() -> Pending? {
        guard pendingHead < pending.count else { return nil }
        let command = pending[pendingHead]
        pending[pendingHead] = nil
        pendingHead += 1
        if pendingHead == pending.count {
            pending.removeAll(keepingCapacity: pending.count <= 1024)
            pendingHead = 0
        } else if pendingHead >= 1024, pendingHead * 2 >= pending.count {
            pending.removeFirst(pendingHead)
            pendingHead = 0
        }
        return command
    }
}
