import Dispatch

@testable import RollboardStore
@testable import RollboardServer

// Stopping, waited for: production code stops by completions (nothing waits); tests stop a node or close a log and
// then check what followed.

extension ChangeLog {
    /// ``close(completion:)``, waiting for it.
    func close() {
        let done = DispatchSemaphore(value: 0)
        close { done.signal() }
        done.wait()
    }
}

extension RollboardNode {
    /// ``stop(completion:)``, waiting for it.
    func stop() {
        let done = DispatchSemaphore(value: 0)
        stop { done.signal() }
        done.wait()
    }
}
