package import RollboardCore

/// What a number means at a glance: a goal and thresholds mapped to a status, and the change shown beside it.
public struct KPIOptions: Sendable, Equatable {
    /// Reaching it (at or above; at or below when lower is better) is `good`.
    public var goal: Double?
    /// At or below it (at or above when lower is better) the status is `warning`.
    public var warning: Double?
    /// At or below it (at or above when lower is better) the status is `critical`.
    public var critical: Double?
    /// Flips every comparison: for response times, error rates, queue lengths.
    public var lowerIsBetter: Bool
    /// What the change arrow compares the value with.
    public var delta: Delta

    /// The reference of the change arrow.
    public enum Delta: Sendable, Equatable {
        /// No arrow.
        case none
        /// The value before the newest one.
        case previous
        /// A fixed value, such as last year's figure or a plan.
        case baseline(Double)
    }

    public init(
        goal: Double? = nil, warning: Double? = nil, critical: Double? = nil, lowerIsBetter: Bool = false,
        delta: Delta = .none
    ) {
        self.goal = goal
        self.warning = warning
        self.critical = critical
        self.lowerIsBetter = lowerIsBetter
        self.delta = delta
    }

    /// Whether the options show nothing (no goal, no thresholds, no arrow).
    public var isEmpty: Bool { goal == nil && warning == nil && critical == nil && delta == .none }

    /// The status of `value`, or `nil` when there is neither a goal nor a threshold.
    public func status(of value: Double) -> KPIStatus? {
        guard goal != nil || warning != nil || critical != nil else { return nil }
        let reaches = { (limit: Double) in lowerIsBetter ? value <= limit : value >= limit }
        let falls = { (limit: Double) in lowerIsBetter ? value >= limit : value <= limit }
        if let goal, reaches(goal) { return .good }
        if let critical, falls(critical) { return .critical }
        if let warning, falls(warning) { return .warning }
        return .normal
    }

    /// Why the limits are out of order (critical, then warning, then goal, in the better direction), or `nil`.
    public var orderProblem: String? { orderViolation?.problem }

    /// The limit out of order (the first of a pair that is not in the better direction) and why, or `nil`.
    public var orderViolation: (field: String, problem: String)? {
        let limits = [("critical", critical), ("warning", warning), ("goal", goal)].compactMap { name, value in
            value.map { (name, $0) }
        }
        for (lower, upper) in zip(limits, limits.dropFirst()) {
            let ordered = lowerIsBetter ? lower.1 > upper.1 : lower.1 < upper.1
            if !ordered {
                let relation = lowerIsBetter ? "above" : "below"
                let problem =
                    "\(lower.0) (\(formatNumber(lower.1))) must be \(relation) \(upper.0) (\(formatNumber(upper.1)))"
                    + (lowerIsBetter ? " when lower is better" : "")
                return (lower.0, problem)
            }
        }
        return nil
    }
}

/// A tile's status by its goal and thresholds.
public enum KPIStatus: String, Sendable {
    case good, normal, warning, critical
}
