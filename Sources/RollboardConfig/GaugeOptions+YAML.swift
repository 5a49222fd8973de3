import RollboardAnimation
package import RollboardCore

extension GaugeOptions {
    /// The gauge's own YAML keys (the counter's keys and the goal and thresholds come on top).
    static let keys = ["style", "min", "max"]

    /// Reads `style`, `min`, `max` and the counter's keys; `nil` when one is wrong (reported). Whether `max` (or the
    /// goal) is above `min` is checked once the goal is read (``rangeProblem(goal:)``).
    init?(reader: YAMLMappingReader) {
        self.init()
        guard var number = CounterOptions(reader: reader) else { return nil }
        if reader.node("duration") == nil { number.duration = GaugeConfiguration.defaultDuration }
        self.number = number
        if let name = reader.string("style") {
            guard let style = GaugeStyle(rawValue: name) else {
                reader.report("style", "must be one of \(GaugeStyle.allCases.map(\.rawValue).joined(separator: ", ")), got \"\(name)\"")
                return nil
            }
            self.style = style
        } else if reader.node("style") != nil {
            return nil
        }
        let range = -1e15...1e15
        if reader.node("min") != nil {
            guard let min = reader.double("min", in: range) else { return nil }
            self.min = min
        }
        if reader.node("max") != nil {
            guard let max = reader.double("max", in: range) else { return nil }
            self.max = max
        }
    }
}
