import Dispatch
import RollboardNet
public import Logging
import Synchronization

extension RedisConnection {
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
