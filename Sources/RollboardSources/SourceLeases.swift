package import Dispatch
package import Logging
package import RollboardConfig
package import RollboardCore
package import RollboardMetrics
package import RollboardRedis
package import RollboardRedisLog
package import RollboardStore

/// The driver of ``SourceLeaseMachine``: one queue, one timer on the node's monotonic clock, and the change log's one
/// Redis link (``RedisChangeLog/send(_:timeout:completion:)``: while it is down, an attempt has no answer, and the
/// link reconnects by itself). Tells the ``SourceScheduler`` which sources this node polls.
package final class SourceLeases: @unchecked Sendable {  // Sendable: every var is touched only on `queue`.
    private let link: RedisChangeLog
    private let keyPrefix: String
    /// This node's name in the leases' values (unique per process).
    let node: String
    private let clock: FrameClock
    private let queue = DispatchQueue(label: "rollboard.source-leases")
    private let timer: any ClockTimer
    private let logger: Logger
    private let onChange: @Sendable (String, Bool) -> Void
    // Confined to `queue`.
    private var machine = SourceLeaseMachine()

    /// Extends the lease only while this node holds it: 1 when extended, 0 when another node holds it.
    static let renewScript = """
        if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
        return 0
        """
    /// Deletes the lease only while this node holds it.
    static let releaseScript = """
        if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
        return 0
        """

    /// - Parameter onChange: called (on the leases' queue) with a source's id and whether this node now polls it.
    package init(
        link: RedisChangeLog, keyPrefix: String, node: String, clock: FrameClock, logger: Logger,
        onChange: @escaping @Sendable (String, Bool) -> Void
    ) {
        self.link = link
        self.keyPrefix = keyPrefix
        self.node = node
        self.clock = clock
        self.logger = logger
        self.onChange = onChange
        timer = clock.makeTimer(queue)
        timer.activate { [weak self] in
            guard let self else { return }
            perform(machine.timerFired(now: clock.now()))
        }
    }

    /// The key of a source's lease (the prefix as a hash tag, like the change log's keys).
    func key(_ source: String) -> String { "{\(keyPrefix)}:source-lease:\(source)" }

    package func configure(_ sources: [SourceConfiguration]) {
        let periods = sources.map { (id: $0.id, every: $0.every) }
        queue.async { [self] in perform(machine.configure(periods, now: clock.now())) }
    }

    /// Gives every lease back (without waiting for Redis's answers); `completion` is called then, on the leases'
    /// queue.
    package func stop(completion: @escaping @Sendable () -> Void) {
        queue.async { [self] in
            perform(machine.configure([], now: clock.now()))
            timer.cancel()
            completion()
        }
    }

    private func perform(_ actions: [SourceLeaseMachine.Action]) {
        dispatchPrecondition(condition: .onQueue(queue))
        for action in actions {
            switch action {
            case .attempt(let source, let renew, let milliseconds): attempt(source, renew: renew, milliseconds)
            case .release(let source):
                link.send(["EVAL", Self.releaseScript, "1", key(source), node]) { _ in }
            case .startPolling(let source):
                logger.notice("source lease held: this node polls it", metadata: ["source": "\(source)"])
                onChange(source, true)
            case .stopPolling(let source):
                logger.notice("source lease lost: another node polls it", metadata: ["source": "\(source)"])
                onChange(source, false)
            case .wake(let time): timer.arm(at: time)
            }
        }
    }

    /// Asks Redis for the lease (or to extend it); no answer (the link down, or Redis silent) counts as such.
    private func attempt(_ source: String, renew: Bool, _ milliseconds: Int) {
        let command =
            renew
            ? ["EVAL", Self.renewScript, "1", key(source), node, "\(milliseconds)"]
            : ["SET", key(source), node, "NX", "PX", "\(milliseconds)"]
        link.send(command) { [self] result in
            let granted: Bool? =
                switch result {
                case .success(.status("OK")), .success(.integer(1)): true
                case .success(.null), .success(.integer(0)): false
                default: nil
                }
            queue.async { [self] in perform(machine.answered(source, granted: granted, now: clock.now())) }
        }
    }
}
