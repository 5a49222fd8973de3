/// How a counter's value moves over its duration (QCountingLabel's counting methods, rate 3).
public enum CounterEasing: String, CaseIterable, Hashable, Sendable {
    /// Slow at both ends: ½(2t)³ in the first half, ½((2t − 2)³ + 2) in the second.
    case easeInOut
    /// Slow start: t³.
    case easeIn
    /// Slow end: 1 − (1 − t)³.
    case easeOut
    /// Constant speed: t.
    case linear

    /// The progress in [0, 1] at time fraction `t` (clamped to [0, 1]).
    public func callAsFunction(_ t: Double) -> Double {
        let t = min(max(t, 0), 1)
        switch self {
        case .easeInOut:
            let doubled = 2 * t
            if doubled < 1 { return 0.5 * doubled * doubled * doubled }
            let shifted = doubled - 2
            return 0.5 * (shifted * shifted * shifted + 2)
        case .easeIn:
            return t * t * t
        case .easeOut:
            let remaining = 1 - t
            return 1 - remaining * remaining * remaining
        case .linear:
            return t
        }
    }
}
