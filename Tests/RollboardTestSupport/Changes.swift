import Dispatch
import Synchronization

/// Wakes a test that waits for a condition whenever something the condition reads may have changed. Test doubles
/// call ``changed()`` after each change they make or see (a message sent to a sink, a timer armed or fired, a
/// subscriber called); ``wait(within:until:)`` checks its condition at once and again after every change, never on
/// a timer. The deadline only ends a wait whose event never comes, so that a broken test fails instead of hanging.
public final class Changes: Sendable {
    private struct Waiter: Sendable {
        let id: UInt64
        let wake: @Sendable () -> Void
    }

    private let state = Mutex<(count: UInt64, lastID: UInt64, waiters: [Waiter])>((0, 0, []))

    public init() {}

    /// Says that something changed: every waiter checks its condition again.
    public func changed() {
        let woken = state.withLock { state in
            state.count &+= 1
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in woken { waiter.wake() }
    }

    /// Waits until `condition` holds, checking it now and after each change; false if it still does not hold
    /// `seconds` later.
    public func wait(within seconds: Double = 10, until condition: () throws -> Bool) async rethrows -> Bool {
        let deadline = DispatchTime.now() + seconds
        while true {
            let seen = count
            if try condition() { return true }
            if DispatchTime.now() >= deadline { return false }
            await nextChange(after: seen, deadline: deadline)
        }
    }

    /// ``wait(within:until:)`` for synchronous tests: blocks the calling thread until the next change.
    public func waitBlocking(within seconds: Double = 10, until condition: () throws -> Bool) rethrows -> Bool {
        let deadline = DispatchTime.now() + seconds
        while true {
            let seen = count
            if try condition() { return true }
            if DispatchTime.now() >= deadline { return false }
            let semaphore = DispatchSemaphore(value: 0)
            guard let id = register(after: seen, wake: { semaphore.signal() }) else { continue }
            if semaphore.wait(timeout: deadline) == .timedOut { cancel(id) }
        }
    }

    private var count: UInt64 { state.withLock { $0.count } }

    private func nextChange(after seen: UInt64, deadline: DispatchTime) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let once = ResumeOnce(continuation)
            guard let id = register(after: seen, wake: once.resume) else { return once.resume() }
            DispatchQueue.global().asyncAfter(deadline: deadline) { [weak self] in
                self?.cancel(id)
                once.resume()
            }
        }
    }

    /// Registers `wake` for the next change; nil (and `wake` not kept) when a change came after `seen` already.
    private func register(after seen: UInt64, wake: @escaping @Sendable () -> Void) -> UInt64? {
        state.withLock { state in
            guard state.count == seen else { return nil }
            state.lastID += 1
            state.waiters.append(Waiter(id: state.lastID, wake: wake))
            return state.lastID
        }
    }

    private func cancel(_ id: UInt64) {
        state.withLock { $0.waiters.removeAll { $0.id == id } }
    }
}

/// A continuation resumed by whichever comes first, the change or the deadline.
private final class ResumeOnce: Sendable {
    private let continuation: Mutex<CheckedContinuation<Void, Never>?>

    init(_ continuation: CheckedContinuation<Void, Never>) {
        self.continuation = Mutex(continuation)
    }

    func resume() {
        continuation.withLock { $0.take() }?.resume()
    }
}
