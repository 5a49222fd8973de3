import Logging
import Synchronization
import Testing

@testable import RollboardCore
@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardHub
@testable import RollboardAPI
@testable import RollboardServer

/// The node's lifecycle: services start in order and stop in reverse, each stop asked only once the one before it
/// called its completion; nothing waits, so the test holds the completions and releases them itself.
@Suite("Service lifecycle")
struct ServiceLifecycleTests {
    /// Three services that record what happens to them; each stop's completion is kept until the test calls it.
    final class Recorder: Sendable {
        let events = Mutex<[String]>([])
        let heldStops = Mutex<[String: @Sendable () -> Void]>([:])
        let failing: String?

        init(failing: String? = nil) {
            self.failing = failing
        }

        func services(_ names: [String]) -> [ServiceLifecycle.Service] {
            names.map { name in
                .init(
                    name,
                    start: { [self] in
                        events.withLock { $0.append("start \(name)") }
                        if name == failing { throw ServiceFailure() }
                    },
                    stop: { [self] done in
                        events.withLock { $0.append("stop \(name)") }
                        heldStops.withLock { $0[name] = done }
                    })
            }
        }

        /// Calls the held completion of `name`'s stop.
        func stopped(_ name: String) {
            let done = heldStops.withLock { $0.removeValue(forKey: name) }
            done?()
        }
    }

    struct ServiceFailure: Error {}

    @Test("services start in order and stop in reverse, each only once the one before said it had stopped")
    func order() throws {
        let recorder = Recorder()
        let lifecycle = ServiceLifecycle(recorder.services(["log", "server", "sources"]), logger: Logger(label: "test"))
        try lifecycle.start()
        let finished = Mutex(0)
        lifecycle.stop { finished.withLock { $0 += 1 } }
        #expect(recorder.events.withLock { $0 } == ["start log", "start server", "start sources", "stop sources"])
        recorder.stopped("sources")
        #expect(recorder.events.withLock { $0 }.last == "stop server", "the next is asked once the first has stopped")
        recorder.stopped("server")
        #expect(finished.withLock { $0 } == 0, "not finished before the last service stopped")
        recorder.stopped("log")
        #expect(recorder.events.withLock { $0 }.suffix(3) == ["stop sources", "stop server", "stop log"])
        #expect(finished.withLock { $0 } == 1)
    }

    @Test("a second stop while stopping is told when the first ends; one after it at once")
    func secondStop() throws {
        let recorder = Recorder()
        let lifecycle = ServiceLifecycle(recorder.services(["log"]), logger: Logger(label: "test"))
        try lifecycle.start()
        let finished = Mutex<[String]>([])
        lifecycle.stop { finished.withLock { $0.append("first") } }
        lifecycle.stop { finished.withLock { $0.append("second") } }
        #expect(finished.withLock { $0 }.isEmpty)
        recorder.stopped("log")
        #expect(finished.withLock { $0 } == ["first", "second"])
        #expect(recorder.events.withLock { $0 } == ["start log", "stop log"], "stopped once")
        lifecycle.stop { finished.withLock { $0.append("third") } }
        #expect(finished.withLock { $0 } == ["first", "second", "third"])
    }

    @Test("a service that fails to start: the ones started before it are stopped, in reverse, and the error is thrown")
    func failedStart() {
        let recorder = Recorder(failing: "server")
        let lifecycle = ServiceLifecycle(
            recorder.services(["log", "dashboards", "server", "sources"]), logger: Logger(label: "test"))
        #expect(throws: ServiceFailure.self) { try lifecycle.start() }
        recorder.stopped("dashboards")
        #expect(recorder.events.withLock { $0 } == [
            "start log", "start dashboards", "start server", "stop dashboards", "stop log",
        ])
    }
}
