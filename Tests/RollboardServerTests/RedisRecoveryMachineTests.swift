import Testing

@testable import RollboardRedisLog

/// The recovery from a Redis that lost this cluster's history, driven with explicit monotonic times: no Redis, no
/// clocks, no sleeping.
@Suite("Redis recovery machine")
struct RedisRecoveryMachineTests {
    typealias Machine = RedisRecoveryMachine

    @Test(
        "what Redis holds is told apart: no epoch or a sequence behind is lost, another epoch is adopted",
        arguments: [
            (nil, 0, Machine.Finding.lost),
            (nil, 40, .lost),
            ("a1", 12, .lost),
            ("a1", 13, .intact),
            ("a1", 90, .intact),
            ("b2", 0, .newEpoch("b2")),
            ("b2", 13, .newEpoch("b2")),
        ] as [(String?, UInt64, Machine.Finding)])
    func finding(stored: String?, sequence: UInt64, expected: Machine.Finding) {
        #expect(Machine.Finding(stored: stored, sequence: sequence, epoch: "a1", lastSeq: 13) == expected)
    }

    @Test("the node that wins the lease gives the others 0.3 s to report their positions, seeds Redis and finishes")
    func seeds() {
        var machine = Machine()
        #expect(machine.start(now: 10) == [.check])
        #expect(machine.checked(.lost, now: 10.01) == [.tryLease(milliseconds: Machine.leaseMilliseconds)])
        #expect(machine.leaseAnswered(granted: true, now: 10.02) == [.wake(at: 10.02 + Machine.gatherSeconds)])
        #expect(machine.timerFired(now: 10.1) == [.wake(at: 10.02 + Machine.gatherSeconds)], "not due yet")
        #expect(machine.timerFired(now: 10.4) == [.seed])
        #expect(machine.seedAnswered(.seeded, now: 10.45) == [.finish(.seeded)])
        #expect(machine.phase == .finished(.seeded) && !machine.isActive)
        #expect(machine.timerFired(now: 20) == [] && machine.failed(reason: "late") == [], "a finished recovery is over")
    }

    @Test(
        "a node that finds another epoch adopts it, whether at once or after it lost the lease",
        arguments: [false, true])
    func adopts(afterLease: Bool) {
        var machine = Machine()
        _ = machine.start(now: 0)
        if afterLease {
            _ = machine.checked(.lost, now: 0)
            #expect(machine.leaseAnswered(granted: false, now: 0.01) == [.wake(at: 0.01 + Machine.firstPoll)])
            #expect(machine.timerFired(now: 0.1) == [.wake(at: 0.01 + Machine.firstPoll)], "not due yet: armed again")
            #expect(machine.timerFired(now: 0.4) == [.check])
        }
        #expect(machine.checked(.newEpoch("b2"), now: 0.4) == [.adopt(epoch: "b2")])
        #expect(machine.adopted() == [.finish(.adopted)])
        #expect(machine.phase == .finished(.adopted))
    }

    @Test("checks after a refused lease come 0.35 s on (past the holder's gathering), doubling up to 1 s apart")
    func pollsWithBackoff() {
        var machine = Machine()
        _ = machine.start(now: 0)
        var now = 0.0
        var waits: [Double] = []
        for _ in 0..<5 {
            _ = machine.checked(.lost, now: now)
            guard case .wake(let at?) = machine.leaseAnswered(granted: false, now: now).first else {
                Issue.record("a refused lease arms no check")
                return
            }
            waits.append(((at - now) * 1000).rounded() / 1000)
            now = at
            #expect(machine.timerFired(now: now) == [.check])
        }
        #expect(waits == [0.35, 0.7, 1, 1, 1])
    }

    @Test(
        "a seed that finds another epoch checks again; one whose lease ran out, or behind a node's position, waits",
        arguments: [
            (Machine.SeedAnswer.anotherEpoch, [Machine.Action.check]),
            (.leaseLost, [.wake(at: 6 + Machine.firstPoll)]),
            (.behind, [.wake(at: 6 + Machine.firstPoll)]),
        ])
    func seedRefused(answer: Machine.SeedAnswer, expected: [Machine.Action]) {
        var machine = Machine()
        _ = machine.start(now: 5)
        _ = machine.checked(.lost, now: 5)
        _ = machine.leaseAnswered(granted: true, now: 5)
        #expect(machine.timerFired(now: 6) == [.seed])
        #expect(machine.seedAnswered(answer, now: 6) == expected)
        #expect(machine.isActive)
    }

    @Test("Redis that holds this cluster's history after all ends the recovery at once")
    func intact() {
        var machine = Machine()
        _ = machine.start(now: 0)
        #expect(machine.checked(.intact, now: 0) == [.finish(.intact)])
    }

    @Test(
        "a command that fails, in any step, abandons the recovery (the link reconnects with backoff)",
        arguments: ["check", "lease", "gather", "seed", "adopt", "wait"])
    func failure(step: String) {
        var machine = Machine()
        _ = machine.start(now: 0)
        switch step {
        case "lease": _ = machine.checked(.lost, now: 0)
        case "gather":
            _ = machine.checked(.lost, now: 0)
            _ = machine.leaseAnswered(granted: true, now: 0)
        case "seed":
            _ = machine.checked(.lost, now: 0)
            _ = machine.leaseAnswered(granted: true, now: 0)
            _ = machine.timerFired(now: 1)
        case "adopt": _ = machine.checked(.newEpoch("b2"), now: 0)
        case "wait":
            _ = machine.checked(.lost, now: 0)
            _ = machine.leaseAnswered(granted: false, now: 0)
        default: break
        }
        #expect(machine.failed(reason: "EOF") == [.wake(at: nil), .abandon("EOF")])
        #expect(machine.phase == .abandoned)
        #expect(machine.checked(.lost, now: 1) == [] && machine.adopted() == [] && machine.timerFired(now: 9) == [])
    }

    @Test("a recovery that no node finishes within the limit is given up, and a new start begins afresh")
    func givesUp() {
        var machine = Machine()
        _ = machine.start(now: 100)
        _ = machine.checked(.lost, now: 100)
        _ = machine.leaseAnswered(granted: false, now: 100)
        _ = machine.timerFired(now: 100 + Machine.giveUpAfter)
        let actions = machine.checked(.lost, now: 100 + Machine.giveUpAfter)
        #expect(actions.first == .wake(at: nil) && actions.count == 2)
        #expect(machine.phase == .abandoned)
        #expect(machine.start(now: 200) == [.check] && machine.poll == Machine.firstPoll)
    }

    @Test("inputs that do not belong to the current step change nothing")
    func outOfStep() {
        var machine = Machine()
        #expect(machine.checked(.lost, now: 0) == [], "not started")
        _ = machine.start(now: 0)
        #expect(machine.leaseAnswered(granted: true, now: 0) == [])
        #expect(machine.seedAnswered(.seeded, now: 0) == [])
        #expect(machine.adopted() == [])
        #expect(machine.timerFired(now: 50) == [])
        #expect(machine.phase == .checking)
    }
}
