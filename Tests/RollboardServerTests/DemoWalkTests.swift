import RollboardTestSupport
import Testing

@testable import RollboardServer

@Suite("Demo walk")
struct DemoWalkTests {
    /// Twelve hours of rounds every 3 s.
    static let rounds = 12 * 3600 / 3

    @Test("over twelve hours the demo's levels stay in a plausible band and keep moving", arguments: [
        ("temperature", 21.4, 19.5, 23.5), ("conversion", 3.25, 2.2, 4.2), ("visitors", 48_213.0, 1_000, 1_600),
        ("latency", 200.0, 180, 220),
    ])
    func levels(id: String, start: Double, low: Double, high: Double) {
        let walk = DemoWalk.of(id, start: start)
        var generator = SplitMix64(seed: 42)
        var value = start
        var seen: Set<Int> = []
        for round in 0..<Self.rounds {
            value = walk.next(from: value, using: &generator)
            if round > 0 { #expect(value >= low && value <= high, "\(id) reached \(value) after \(round) rounds") }
            seen.insert(Int((value - low) / (high - low) * 10))
        }
        #expect(seen.count >= 4, "\(id) visited \(seen.count) tenths of its band")
    }

    @Test("a total only climbs, a little each round", arguments: ["revenue", "orders", "pageviews"])
    func totals(id: String) {
        let walk = DemoWalk.of(id, start: 1_000)
        var generator = SplitMix64(seed: 7)
        var value = 1_000.0
        for _ in 0..<Self.rounds {
            let next = walk.next(from: value, using: &generator)
            #expect(next >= value && next - value <= walk.spread)
            value = next
        }
    }
}
