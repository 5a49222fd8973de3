package import RollboardCore

extension ChartOptions {
    /// The chart's options in its `hello` tile (the goal and thresholds come with every tile's).
    func helloMembers() -> [JSONMember] {
        [
            JSONMember("style", .string(style.rawValue)),
            JSONMember("points", .number(Double(count))),
            JSONMember("step", .number(Double(step))),
            JSONMember("window", .number(window)),
            JSONMember("aggregate", .string(aggregate.rawValue)),
            JSONMember("duration", .number(duration)),
            JSONMember("maxDuration", .number(maxDuration)),
            JSONMember("decimals", .number(Double(decimals))),
            JSONMember("prefix", .string(prefix)),
            JSONMember("suffix", .string(suffix)),
        ]
    }
}
