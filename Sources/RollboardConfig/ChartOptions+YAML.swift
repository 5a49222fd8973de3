package import RollboardCore

extension ChartOptions {
    /// A chart's own YAML keys (the goal and thresholds come on top).
    static let keys = [
        "style", "window", "step", "aggregate", "duration", "maxDuration", "easing", "decimals", "prefix", "suffix",
    ]

    /// Reads the chart's keys; `nil` when one is wrong (reported, naming the field).
    init?(reader: YAMLMappingReader) {
        self.init()
        let style = reader.choice("style", of: ChartStyle.self)
        let aggregate = reader.choice("aggregate", of: Aggregate.self)
        let easing = reader.choice("easing", of: Easing.self)
        guard style.ok, aggregate.ok, easing.ok else { return nil }
        self.style = style.value ?? self.style
        self.aggregate = aggregate.value ?? self.aggregate
        self.easing = easing.value ?? self.easing
        if let text = reader.string("window") {
            guard case .last(let seconds)? = WindowSpan(text) else {
                reader.report("window", "a chart's window is \"last N\" with m, h or d (like \"last 24h\"), got \"\(text)\"")
                return nil
            }
            window = seconds
        }
        if let text = reader.string("step") {
            guard let seconds = Self.seconds(text) else {
                reader.report("step", "must be a number of minutes, hours or days like 5m, 1h or 1d, got \"\(text)\"")
                return nil
            }
            if let problem = Self.stepProblem(seconds, window: window) {
                reader.report("step", problem)
                return nil
            }
            step = seconds
        } else {
            guard let step = Self.defaultStep(window: window) else {
                reader.report("window", "needs a step (no step of \(Self.steps.map { "\($0 / 60)m" }.joined(separator: ", ")) "
                    + "divides it into 2 to \(Self.maxPoints) points)")
                return nil
            }
            self.step = step
        }
        if reader.node("maxDuration") != nil {
            guard let seconds = reader.double("maxDuration", in: 0.1...60) else { return nil }
            maxDuration = seconds
        }
        if reader.node("duration") != nil {
            guard let seconds = reader.double("duration", in: 0.1...60) else { return nil }
            duration = seconds
        }
        if duration > maxDuration {
            reader.report("duration", "must be at most maxDuration (\(formatNumber(maxDuration)) s), got \(formatNumber(duration))")
            return nil
        }
        if reader.node("decimals") != nil {
            guard let decimals = reader.int("decimals", in: 0...6) else { return nil }
            self.decimals = decimals
        }
        for key in ["prefix", "suffix"] where reader.node(key) != nil {
            guard let text = reader.string(key), text.count <= 16 else {
                reader.report(key, "must be a string of at most 16 characters")
                return nil
            }
            if key == "prefix" { prefix = text } else { suffix = text }
        }
    }

    /// `5m`, `1h`, `1d` in seconds (whole minutes only), or `nil`.
    static func seconds(_ text: String) -> Int64? {
        guard let unit = text.last, let count = Int64(text.dropLast()), count > 0, count <= 100_000 else { return nil }
        switch unit {
        case "m": return count * 60
        case "h": return count * 3_600
        case "d": return count * 86_400
        default: return nil
        }
    }
}
