import RollboardTestSupport

@testable import RollboardCore
@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardRedisLog
@testable import RollboardAccess
@testable import RollboardHub

/// What a change log tells its subscribers, recorded for a test that waits on it. A log applies a change before it
/// tells it, so each change told is also the event to check the log's own state again (`lastSeq`, a current value).
final class HeardChanges: Sendable {
    private let heard = Synchronized<[StoreChange]>([])
    let changes = Changes()

    init(_ log: any ChangeLog) {
        log.subscribe { [heard, changes] change in
            heard.update { $0.append(change) }
            changes.changed()
        }
    }

    /// Every change told so far, in order.
    var all: [StoreChange] { heard.update { $0 } }

    /// Waits until `condition` holds, checked now and after each change the log tells.
    func wait(within seconds: Double = 10, until condition: () -> Bool) async -> Bool {
        await changes.wait(within: seconds, until: condition)
    }
}

extension ChangeLog {
    /// Waits until `condition` (on this log's state) holds, checked now and after each change the log tells.
    func waitForChanges(within seconds: Double = 10, until condition: () -> Bool) async -> Bool {
        await HeardChanges(self).wait(within: seconds, until: condition)
    }
}
