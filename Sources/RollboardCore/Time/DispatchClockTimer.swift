import Dispatch

/// A ``ClockTimer`` on a Dispatch timer source; `deadline` turns a time on its clock into a Dispatch deadline.
final class DispatchClockTimer: ClockTimer, @unchecked Sendable {  // Sendable: Dispatch sources are thread-safe.
    private let source: any DispatchSourceTimer
    private let deadline: @Sendable (Double) -> DispatchTime

    init(queue: DispatchQueue, deadline: @escaping @Sendable (Double) -> DispatchTime) {
        self.source = DispatchSource.makeTimerSource(queue: queue)
        self.deadline = deadline
    }

    func activate(_ handler: @escaping @Sendable () -> Void) {
        source.setEventHandler(handler: handler)
        source.schedule(deadline: .distantFuture)
        source.activate()
    }

    func arm(at time: Double?) {
        let due = time.flatMap { $0.isFinite ? deadline($0) : nil }
        source.schedule(deadline: due ?? .distantFuture, leeway: .milliseconds(1))
    }

    func cancel() {
        source.cancel()
    }
}
