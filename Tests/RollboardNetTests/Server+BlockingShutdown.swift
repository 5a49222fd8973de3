import Dispatch

@testable import RollboardNet

extension Server {
    /// ``shutdown(completion:)``, waiting for it: for tests only, which stop a server and check what followed.
    func shutdown() {
        let done = DispatchSemaphore(value: 0)
        shutdown { done.signal() }
        done.wait()
    }
}
