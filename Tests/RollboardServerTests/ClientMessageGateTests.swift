import Testing

@testable import RollboardConfig
@testable import RollboardAccess
@testable import RollboardHub
@testable import RollboardAPI

@Suite("Client message gate")
struct ClientMessageGateTests {
    private let limits = ClientMessageGate.Limits(perSecond: 10, burst: 5, maxQueued: 3)

    @Test("a burst is admitted, the next message at the same instant is refused as too fast")
    func burstThenRefused() {
        let gate = ClientMessageGate(limits: ClientMessageGate.Limits(perSecond: 10, burst: 5, maxQueued: 100))
        for _ in 0..<5 {
            #expect(gate.admit(now: 1) == nil)
            gate.finished()
        }
        #expect(gate.admit(now: 1) == .tooFast)
    }

    @Test("the allowance refills at the configured rate and never beyond the burst")
    func refill() {
        let gate = ClientMessageGate(limits: ClientMessageGate.Limits(perSecond: 10, burst: 5, maxQueued: 100))
        for _ in 0..<5 { _ = gate.admit(now: 0); gate.finished() }
        #expect(gate.admit(now: 0.05) == .tooFast)
        #expect(gate.admit(now: 0.15) == nil)
        gate.finished()
        var admitted = 0
        for _ in 0..<20 where gate.admit(now: 100) == nil {
            admitted += 1
            gate.finished()
        }
        #expect(admitted == 5)
    }

    @Test("messages the hub has not handled yet are capped, and handling one makes room")
    func queuedCap() {
        let gate = ClientMessageGate(limits: limits)
        for _ in 0..<3 { #expect(gate.admit(now: 0) == nil) }
        #expect(gate.queued == 3)
        #expect(gate.admit(now: 0) == .tooManyQueued)
        gate.finished()
        #expect(gate.admit(now: 0) == nil)
    }
}
