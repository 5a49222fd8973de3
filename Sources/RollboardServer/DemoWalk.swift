package import RollboardConfig
package import RollboardHub
package import RollboardStore

/// How `serve --demo` moves one value: a total that only climbs, or a level that walks around its mean and is pulled
/// back towards it (an Ornstein-Uhlenbeck-like walk, clamped to a band), so a wall left running for hours shows
/// plausible numbers that never run away.
struct DemoWalk: Sendable {
    /// Where a level is pulled back to.
    var mean: Double
    /// The largest random step either way (for a total: the largest step up).
    var spread: Double
    /// The band a level never leaves.
    var low: Double
    var high: Double
    /// Whether the value is a total that only climbs.
    var climbing = false
    /// The share of the distance to the mean a level moves back each round.
    static let pull = 0.08

    /// The walk of the demo's metric `id` that starts at `start`: the demo's totals climb slowly, its levels stay in a
    /// plausible band (a server room between 19.5 and 23.5 °C, a conversion rate between 2.2 and 4.2 %), any other
    /// level within ±10 % of its start.
    static func of(_ id: String, start: Double) -> DemoWalk {
        switch id {
        case "revenue":
            DemoWalk(mean: start, spread: 6, low: 0, high: .infinity, climbing: true)
        case "orders", "sales":
            DemoWalk(mean: start, spread: 2, low: 0, high: .infinity, climbing: true)
        case "pageviews":
            DemoWalk(mean: start, spread: 40, low: 0, high: .infinity, climbing: true)
        case "visitors":
            DemoWalk(mean: 1_287, spread: 25, low: 1_000, high: 1_600)
        case "temperature":
            DemoWalk(mean: 21.4, spread: 0.15, low: 19.5, high: 23.5)
        case "conversion":
            DemoWalk(mean: 3.2, spread: 0.08, low: 2.2, high: 4.2)
        default:
            DemoWalk(mean: start, spread: max(abs(start), 10) * 0.02, low: start - max(abs(start), 10) * 0.1,
                     high: start + max(abs(start), 10) * 0.1)
        }
    }

    /// The value after `value`: a total grows by 0…spread; a level moves `pull` of the way back to the mean plus a
    /// step of up to `spread` either way, kept in `low…high`.
    func next(from value: Double, using generator: inout some RandomNumberGenerator) -> Double {
        if climbing { return max(low, value + Double.random(in: 0...spread, using: &generator)) }
        let step = Double.random(in: -spread...spread, using: &generator)
        return min(max(value + (mean - value) * Self.pull + step, low), high)
    }
}
