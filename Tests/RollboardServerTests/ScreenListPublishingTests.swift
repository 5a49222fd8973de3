import Testing

@testable import RollboardAPI

/// When a node on Redis publishes its screen list, on a manual clock.
@Suite struct ScreenListPublishingTests {
    typealias Defaults = ScreenListPublishing.Defaults

    @Test("a node asks at once, then every interval, and publishes only while the lists are watched")
    func onlyWhileWatched() {
        var machine = ScreenListPublishing()
        #expect(machine.start(now: 10) == [.ask, .wake(10 + Defaults.interval)])
        #expect(machine.asked(watched: false) == [], "nobody asked for the cluster's screens: nothing is written")
        #expect(machine.timerFired(now: 12) == [.ask, .wake(12 + Defaults.interval)])
        #expect(machine.asked(watched: true) == [.publish])
        machine.answered()
        #expect(machine.timerFired(now: 14) == [.ask, .wake(14 + Defaults.interval)])
        #expect(machine.asked(watched: nil) == [], "Redis did not answer: wait for the next tick")
        #expect(machine.timerFired(now: 16) == [.ask, .wake(16 + Defaults.interval)])
    }

    @Test("each publication outlives a missed one or two, and a cold read waits until every node has published")
    func lifetimes() {
        #expect(Defaults.lifetime >= 2 * Defaults.interval, "a late publication does not drop the node")
        #expect(Defaults.firstPublication > Defaults.interval && Defaults.firstPublication < Defaults.lifetime)
        #expect(Defaults.watched > 5, "a console refreshing every 5 seconds keeps the lists watched")
    }

    @Test("while a question or publication is unanswered the next tick only waits; once answered, asking resumes")
    func oneAtATime() {
        var machine = ScreenListPublishing()
        _ = machine.start(now: 0)
        #expect(machine.timerFired(now: 2) == [.wake(2 + Defaults.interval)])
        #expect(machine.asked(watched: true) == [.publish])
        #expect(machine.timerFired(now: 4) == [.wake(4 + Defaults.interval)])
        machine.answered()
        #expect(machine.timerFired(now: 6) == [.ask, .wake(6 + Defaults.interval)])
    }

    @Test("a stopped publisher publishes nothing more and disarms its timer")
    func stopped() {
        var machine = ScreenListPublishing()
        _ = machine.start(now: 0)
        #expect(machine.stop() == [.wake(nil)])
        #expect(machine.asked(watched: true) == [], "an answer that arrives after the stop publishes nothing")
        #expect(machine.timerFired(now: 2) == [.wake(nil)])
    }
}
