import Testing

@testable import RollboardAPI

/// When a node on Redis publishes its screen list, on a manual clock.
@Suite struct ScreenListPublishingTests {
    typealias Defaults = ScreenListPublishing.Defaults

    @Test("a node publishes at once, then every interval, each publication outliving a missed one or two")
    func everyInterval() {
        var machine = ScreenListPublishing()
        #expect(machine.start(now: 10) == [.publish, .wake(10 + Defaults.interval)])
        machine.answered()
        #expect(machine.timerFired(now: 12) == [.publish, .wake(12 + Defaults.interval)])
        #expect(Defaults.lifetime >= 2 * Defaults.interval, "a late publication does not drop the node")
    }

    @Test("while a publication is unanswered the next tick only waits; once answered, publishing resumes")
    func oneAtATime() {
        var machine = ScreenListPublishing()
        _ = machine.start(now: 0)
        #expect(machine.timerFired(now: 2) == [.wake(2 + Defaults.interval)])
        machine.answered()
        #expect(machine.timerFired(now: 4) == [.publish, .wake(4 + Defaults.interval)])
    }

    @Test("a stopped publisher publishes nothing more and disarms its timer")
    func stopped() {
        var machine = ScreenListPublishing()
        _ = machine.start(now: 0)
        #expect(machine.stop() == [.wake(nil)])
        machine.answered()
        #expect(machine.timerFired(now: 2) == [.wake(nil)])
    }
}
