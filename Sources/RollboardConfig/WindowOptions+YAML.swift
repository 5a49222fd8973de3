package import RollboardCore

extension WindowOptions {
    /// The YAML keys of a number tile's window.
    static let keys = ["window", "aggregate", "compare"]

    /// Reads `window`, `aggregate` and `compare`; `nil` when the tile has no window, or when one is wrong (then
    /// reported, naming its key).
    static func read(from reader: YAMLMappingReader, kpi: KPIOptions?) -> WindowOptions? {
        guard let window = reader.string("window") else {
            for key in ["aggregate", "compare"] where reader.node("window") == nil && reader.node(key) != nil {
                reader.report(key, "needs a window (\(WindowSpan.accepted))")
            }
            return nil
        }
        var wrong = false
        if WindowSpan(window) == nil {
            reader.report("window", "must be \(WindowSpan.accepted), got \"\(window)\"")
            wrong = true
        }
        let aggregate = reader.string("aggregate") ?? defaultAggregate
        if reader.node("aggregate") != nil, reader.string("aggregate") == nil { wrong = true }
        if WindowAggregate(rawValue: aggregate) == nil {
            let names = WindowAggregate.allCases.map(\.rawValue).joined(separator: ", ")
            reader.report("aggregate", "must be one of \(names), got \"\(aggregate)\"")
            wrong = true
        }
        let compare = reader.string("compare")
        if reader.node("compare") != nil, compare == nil { wrong = true }
        if let compare, MetricWindow.Comparison(rawValue: compare) == nil {
            reader.report("compare", "must be yesterday or lastWeek, got \"\(compare)\"")
            wrong = true
        }
        if compare != nil, let delta = kpi?.delta, delta != .none {
            reader.report("compare", "feeds the change arrow itself: leave out delta and baseline")
            wrong = true
        }
        if wrong { return nil }
        return WindowOptions(window: window, aggregate: aggregate, compare: compare)
    }
}
