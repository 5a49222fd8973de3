import Testing

@testable import RollboardConfig
@testable import RollboardStore
@testable import RollboardAccess
@testable import RollboardHub
@testable import RollboardSources
@testable import RollboardAPI

/// One poller per cluster: the lease schedule on explicit instants.
@Suite("SourceLeaseMachine")
struct SourceLeaseMachineTests {
    @Test("a node asks at once, polls once granted, renews each half period, and stops when another holds it")
    func holdAndLose() {
        var machine = SourceLeaseMachine()
        #expect(machine.configure([("prom", 10)], now: 0) == [
            .attempt(source: "prom", renew: false, milliseconds: 15_000)
        ])
        #expect(machine.answered("prom", granted: true, now: 0.1) == [.startPolling("prom"), .wake(at: 5.1)])
        #expect(machine.timerFired(now: 5) == [.wake(at: 5.1)])
        #expect(machine.timerFired(now: 5.1) == [.attempt(source: "prom", renew: true, milliseconds: 15_000), .wake(at: 15)])
        #expect(machine.answered("prom", granted: true, now: 5.2) == [.wake(at: 10.2)])
        #expect(machine.timerFired(now: 10.2) == [.attempt(source: "prom", renew: true, milliseconds: 15_000), .wake(at: 20.1)])
        #expect(machine.answered("prom", granted: false, now: 10.3) == [.stopPolling("prom"), .wake(at: 15.3)])
    }

    @Test("a node that is refused keeps asking each half period and takes over within two periods of the holder's death")
    func takeover() {
        var machine = SourceLeaseMachine()
        _ = machine.configure([("prom", 10)], now: 0)
        // The holder died just after renewing at 0: its lease runs to 15.
        #expect(machine.answered("prom", granted: false, now: 0) == [.wake(at: 5)])
        var now = 5.0
        var started: Double?
        while now <= 20, started == nil {
            _ = machine.timerFired(now: now)
            let granted = now >= 15
            if machine.answered("prom", granted: granted, now: now).contains(.startPolling("prom")) { started = now }
            now += 5
        }
        #expect(started == 15)
        #expect(started! - 0 <= 2 * 10)
    }

    @Test("a holder that cannot reach Redis stops polling when its lease would run out, not before")
    func unreachable() {
        var machine = SourceLeaseMachine()
        _ = machine.configure([("prom", 10)], now: 0)
        _ = machine.answered("prom", granted: true, now: 0)
        _ = machine.timerFired(now: 5)
        #expect(machine.answered("prom", granted: nil, now: 6) == [.wake(at: 11)])
        _ = machine.timerFired(now: 11)
        #expect(machine.answered("prom", granted: nil, now: 12) == [.wake(at: 15)])
        #expect(machine.timerFired(now: 15) == [.stopPolling("prom"), .wake(at: 17)])
    }

    @Test("a removed source is given back; a late answer for it is ignored")
    func removed() {
        var machine = SourceLeaseMachine()
        _ = machine.configure([("a", 10), ("b", 4)], now: 0)
        _ = machine.answered("a", granted: true, now: 0)
        let actions = machine.configure([("b", 4)], now: 1)
        #expect(Array(actions.prefix(2)) == [.stopPolling("a"), .release(source: "a")])
        #expect(machine.answered("a", granted: true, now: 2).isEmpty)
        #expect(machine.leases.keys.sorted() == ["b"])
    }
}
