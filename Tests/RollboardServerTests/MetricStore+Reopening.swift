import RollboardTestSupport

@testable import RollboardStore
@testable import RollboardAPI
@testable import RollboardServer

extension MetricStore {
    /// `open()` on the store in `directory`, tried again for up to 2 s while its lock reads as held. A process another
    /// test spawns holds a copy of every descriptor from its fork until its exec closes them (O_CLOEXEC), the lock's
    /// too: a store this test closed a moment ago may still read as locked for that moment. Any other error is thrown
    /// at once.
    static func reopening(_ directory: String, _ open: () throws -> MetricStore) throws -> MetricStore {
        var store: MetricStore?
        var refusal: (any Error)?
        _ = eventuallyBlocking(within: 2) {
            do {
                store = try open()
                return true
            } catch let error as StoreError where error == .locked(directory) {
                refusal = error
                return false
            } catch {
                refusal = error
                return true
            }
        }
        if let store { return store }
        throw refusal ?? StoreError.locked(directory)
    }
}
