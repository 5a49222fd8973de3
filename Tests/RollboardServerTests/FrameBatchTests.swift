import RollboardClient
import RollboardNet
import Testing

@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardRedisLog
@testable import RollboardHub

/// A stream message handed to many sinks at once, without the driver asking what kind each sink is.
@Suite("Frame batch")
struct FrameBatchTests {
    @Test("sinks that are not WebSockets join a batch by default and are each sent its message once")
    func otherSinksOneByOne() {
        let sinks = [RecordingSink(), RecordingSink()]
        var batch = FrameBatch(capacity: sinks.count)
        for sink in sinks { sink.join(&batch) }
        batch.send(BroadcastStream(deflate: nil).message(text: #"{"f":1,"t":{}}"#))
        #expect(sinks.map(\.messages) == [[#"{"f":1,"t":{}}"#], [#"{"f":1,"t":{}}"#]])
    }
}
