package import RollboardCore

extension KPIOptions {
    /// The YAML keys of goal, thresholds and change arrow.
    static let keys = ["goal", "warning", "critical", "lowerIsBetter", "delta", "baseline"]

    /// Reads the goal, thresholds and arrow; `nil` when one is wrong (reported).
    init?(reader: YAMLMappingReader) {
        let range = -1e15...1e15
        self.init(
            goal: reader.double("goal", in: range), warning: reader.double("warning", in: range),
            critical: reader.double("critical", in: range), lowerIsBetter: reader.bool("lowerIsBetter") ?? false)
        for key in ["goal", "warning", "critical", "lowerIsBetter"] where reader.node(key) != nil {
            let read: Bool =
                switch key {
                case "goal": goal != nil
                case "warning": warning != nil
                case "critical": critical != nil
                default: reader.bool(key) != nil
                }
            if !read { return nil }
        }
        if let violation = orderViolation {
            reader.report(violation.field, violation.problem)
            return nil
        }
        let baseline = reader.double("baseline", in: range)
        if reader.node("baseline") != nil && baseline == nil { return nil }
        switch reader.string("delta") {
        case nil: delta = baseline.map(Delta.baseline) ?? .none
        case "none": delta = .none
        case "previous": delta = .previous
        case "baseline":
            guard let baseline else {
                reader.report("delta", "baseline needs a baseline value")
                return nil
            }
            delta = .baseline(baseline)
        case let other?:
            reader.report("delta", "must be one of previous, baseline, none, got \"\(other)\"")
            return nil
        }
        if baseline != nil, case .previous = delta {
            reader.report("baseline", "is only used with delta: baseline")
            return nil
        }
    }
}
