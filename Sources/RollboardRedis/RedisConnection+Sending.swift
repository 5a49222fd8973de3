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

    /// Hands the unsent commands to the transport in one piece (one TLS record run under TLS), which writes what
    /// the socket takes and buffers the rest.
    func flushNow() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard let link, !unsent.isEmpty else { return }
        var plaintext: [UInt8] = []
        swap(&plaintext, &unsent)
        link.send(plaintext)
    }
}
