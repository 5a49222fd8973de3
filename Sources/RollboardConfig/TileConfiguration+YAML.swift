import RollboardAnimation
package import RollboardCore
import Yams

extension TileConfiguration {
    static let commonKeys = ["id", "type", "title", "metric", "position", "staleAfter", "backlog", "queue", "maxLag"]
    static let optionKeys: [TileType: [String]] = [
        .odometer: ["columns", "maxColumns", "decimals", "prefix", "suffix", "maxDuration", "pad", "compact", "trend"]
            + NumberStyle.keys + KPIOptions.keys + WindowOptions.keys,
        .counter: ["format", "grouping", "easing", "duration", "prefix", "suffix", "compact", "trend"] + NumberStyle.keys
            + KPIOptions.keys + WindowOptions.keys,
        .wheel: ["contents", "duration", "colors"],
        .carousel: ["slides", "interval", "dotColor", "activeDotColor"],
        .text: ["text", "align"],
        .gauge: GaugeOptions.keys + ["format", "grouping", "easing", "duration", "prefix", "suffix", "compact"]
            + NumberStyle.keys + KPIOptions.keys + WindowOptions.keys,
        .clock: ClockOptions.keys,
        .leaderboard: LeaderboardOptions.keys,
        .chart: ChartOptions.keys + KPIOptions.keys,
    ]

    /// Reads one item of a dashboard's `tiles`; `nil` when it has problems (reported).
    init?(node: Node, index: Int, file: String, gridColumns: Int, gridRows: Int?, problems: ConfigurationProblems) {
        let before = problems.lines.count
        var context = "\(file): tiles[\(index)]"
        if case .mapping(let mapping) = node, let id = mapping["id"]?.scalar?.string,
            DashboardConfiguration.isValidID(id)
        {
            context = "\(file): tile \"\(id)\""
        }
        guard let reader = YAMLMappingReader(node, context: context, field: "", problems: problems) else { return nil }
        reader.require("id")
        let id = reader.string("id") ?? ""
        if reader.node("id") != nil, !DashboardConfiguration.isValidID(id) {
            reader.report("id", "\(DashboardConfiguration.idRule), got \"\(id)\"")
        }

        var type: TileType?
        if reader.require("type"), let name = reader.string("type") {
            type = TileType(rawValue: name)
            if type == nil {
                reader.report(
                    "type",
                    "must be one of \(TileType.allCases.map(\.rawValue).joined(separator: ", ")), got \"\(name)\"")
            }
        }
        Self.rejectUnknownKeys(reader, type: type)

        let title = reader.displayText("title", as: .name)
        let metric = reader.string("metric")
        if let metric, !DashboardConfiguration.isValidID(metric) {
            reader.report("metric", "\(DashboardConfiguration.idRule), got \"\(metric)\"")
        }
        var position: TilePosition?
        if let place = reader.mapping("position") {
            position = TilePosition(reader: place, gridColumns: gridColumns, gridRows: gridRows)
        }
        let staleAfter = reader.double("staleAfter", in: 1...31_536_000)
        let backlog = reader.int("backlog", in: 1...10_000)
        var queue: QueuePolicy?
        if let name = reader.string("queue") {
            queue = QueuePolicy(rawValue: name)
            if queue == nil { reader.report("queue", "must be one of fifo, latest, retarget, got \"\(name)\"") }
        }
        let maxLag = reader.double("maxLag", in: 0.1...3_600)
        if let type, !type.hasAnimationQueue {
            for key in ["queue", "maxLag"] where reader.node(key) != nil {
                reader.report(key, "\(type.rawValue) tiles have no animation queue")
            }
        }

        let options: TileOptions? =
            switch type {
            case .odometer: OdometerOptions(reader: reader).map(TileOptions.odometer)
            case .counter: CounterOptions(reader: reader).map(TileOptions.counter)
            case .wheel: WheelOptions(reader: reader).map(TileOptions.wheel)
            case .carousel: CarouselOptions(reader: reader).map(TileOptions.carousel)
            case .text: TextOptions(reader: reader).map(TileOptions.text)
            case .gauge: GaugeOptions(reader: reader).map(TileOptions.gauge)
            case .clock: ClockOptions(reader: reader).map(TileOptions.clock)
            case .leaderboard: LeaderboardOptions(reader: reader).map(TileOptions.leaderboard)
            case .chart: ChartOptions(reader: reader).map(TileOptions.chart)
            case nil: nil
            }
        let kpi = KPIOptions(reader: reader)
        let numberTile = type.map { [TileType.odometer, .counter, .gauge].contains($0) } == true
        let window = numberTile ? WindowOptions.read(from: reader, kpi: kpi) : nil
        if case .gauge(let gauge)? = options, let kpi, let range = gauge.rangeProblem(goal: kpi.goal) {
            reader.report(range.field, range.problem)
        }
        guard problems.lines.count == before, let options, let kpi else { return nil }
        self.init(
            id: id, title: title, metric: metric, position: position, staleAfter: staleAfter, backlog: backlog,
            queue: queue, maxLag: maxLag, kpi: kpi, options: options, window: window
        )
    }

    private static func rejectUnknownKeys(_ reader: YAMLMappingReader, type: TileType?) {
        guard let type else {
            reader.rejectUnknownKeys(allowed: commonKeys + optionKeys.values.flatMap { $0 })
            return
        }
        let allowed = commonKeys + optionKeys[type, default: []]
        for key in reader.keys where !allowed.contains(key) {
            if let owner = TileType.allCases.first(where: { optionKeys[$0, default: []].contains(key) }) {
                reader.report(
                    key,
                    "is an option of \(owner.rawValue) tiles, not \(type.rawValue) tiles "
                        + "(\(type.rawValue) options: \(optionKeys[type, default: []].joined(separator: ", ")))"
                )
            }
        }
        let known = Set(commonKeys + optionKeys.values.flatMap { $0 })
        let unknownOnly = reader.keys.filter { !known.contains($0) }
        if !unknownOnly.isEmpty {
            for key in unknownOnly {
                let suggestion = allowed.min { editDistance(key, $0) < editDistance(key, $1) }
                if let suggestion, editDistance(key, suggestion) <= 2 {
                    reader.report(key, "unknown key (did you mean \"\(suggestion)\"?)")
                } else {
                    reader.report(key, "unknown key")
                }
            }
        }
    }
}
