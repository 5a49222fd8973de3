import Dispatch
import RollboardCore
import RollboardRedisLog

/// The driver of ``ScreenListPublishing``: one queue, one timer on the node's monotonic clock, the change log's Redis
/// link (``RedisScreenLists``). While the lists are watched, publishes the list `items` gives (this node's screens, each
/// naming its node) under this process's `id`.
final class ScreenListPublisher: @unchecked Sendable {  // Sendable: `machine` is touched only on `queue`.
    let id: String
    private let lists: RedisScreenLists
    private let items: @Sendable (@escaping @Sendable ([JSONValue]) -> Void) -> Void
    private let clock: FrameClock
    private let queue = DispatchQueue(label: "rollboard.screen-lists")
    private let timer: any ClockTimer
    // Confined to `queue`.
    private var machine = ScreenListPublishing()

    init(
        id: String, lists: RedisScreenLists, clock: FrameClock,
        items: @escaping @Sendable (@escaping @Sendable ([JSONValue]) -> Void) -> Void
    ) {
        self.id = id
        self.lists = lists
        self.clock = clock
        self.items = items
        timer = clock.makeTimer(queue)
        timer.activate { [weak self] in
            guard let self else { return }
            perform(machine.timerFired(now: clock.now()))
        }
        queue.async { [self] in perform(machine.start(now: clock.now())) }
    }

    deinit {
        timer.cancel()
    }

    /// Publishes nothing more (the last publication runs out in Redis by itself); `completion` is called then.
    func stop(completion: @escaping @Sendable () -> Void) {
        queue.async { [self] in
            perform(machine.stop())
            timer.cancel()
            completion()
        }
    }

    private func perform(_ actions: [ScreenListPublishing.Action]) {
        dispatchPrecondition(condition: .onQueue(queue))
        for action in actions {
            switch action {
            case .wake(let time): timer.arm(at: time)
            case .ask:
                lists.isWatched { [self] watched in
                    queue.async { [self] in perform(machine.asked(watched: watched)) }
                }
            case .publish:
                items { [self] found in
                    let milliseconds = Int(ScreenListPublishing.Defaults.lifetime * 1000)
                    lists.publish(id, list: JSONValue.array(found).serialized, milliseconds: milliseconds) { [self] _ in
                        queue.async { [self] in machine.answered() }
                    }
                }
            }
        }
    }
}
