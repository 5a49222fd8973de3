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
    }

    /// Queues the command's reply slot and its bytes; commands appended in one turn of the queue go out together.
    func appendCommand(
        _ arguments: [[UInt8]], deadline: DispatchTime, completion: @escaping (Result<RedisReply, RedisError>) -> Void
    ) {
        pending.append(Pending(deadline: deadline, completion: completion))
        link?.appendToBatch { RedisCommandEncoder.encode(arguments, into: &$0) }
        scheduleTimer(deadline)
    }
}
