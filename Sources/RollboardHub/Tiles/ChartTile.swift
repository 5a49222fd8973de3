package import RollboardAccess
import RollboardAnimation
package import RollboardConfig
package import RollboardCore
import RollboardNet
package import RollboardStore

/// A chart tile as one screen sees it: its metric's buckets of `step` seconds over its window, the newest bucket being
/// the one of the newest change. A change in a later bucket slides the plot left by the buckets passed (those with no
/// change are gaps) while the range eases; a change in the newest bucket moves its point (``Chart``). Moves go through
/// the tile's animation queue (duration, `maxDuration`, `maxLag`, queue policy); `null` until the metric has a value.
///
/// A change's bucket is the one of its commit time, as when a tile built afresh (start, reload) reads the buckets from
/// the metric's series; only a change that is not stored goes by the node's wall clock (hub time + `wallOffset`).
struct ChartTile: QueuedTile, WallClockTile {
    /// Where a chart starts from: its points, the metric's newest value and, for `aggregate: sum`, the value before
    /// the newest bucket.
    struct Seed: Equatable {
        var points: ChartPoints
        var latest, beforeNewest: Double
    }

    let tileID: String
    /// The bucket width in seconds, and what a bucket's point is.
    let step: Int64, aggregate: ChartOptions.Aggregate
    /// Wall-clock seconds since 1970 at hub time 0.
    var wallOffset: Double
    /// Writes the newest point's value (`text`), with `places` decimals on the wire (the tile's and two more).
    let format: NumberFormat, places: Int
    let indicator: KPIIndicator?
    private(set) var queue: AnimationQueue<Chart>
    private(set) var hasValue: Bool
    /// The metric's newest value and the last value before the newest bucket (what a `sum` bucket counts from).
    private(set) var latest: Double
    private(set) var beforeNewest: Double
    /// The indicator's members for the newest point (computed once per change).
    private(set) var indicatorMembers: [TileState.Member] = []
    /// The `pts` JSON of the lists the newest move and the rest after it show, written once per change rather than
    /// every frame (a list not among them, such as an earlier queued move's, is written when shown).
    private(set) var writtenPoints: [(values: ArraySlice<Double?>, json: String)] = []

    init(
        tileID: String, chart: Chart, options: ChartOptions, seed: Seed?, wallOffset: Double, indicator: KPIIndicator?,
        backlog: Int, maxLag: Double?, policy: QueuePolicy, at time: Double
    ) throws {
        self.tileID = tileID
        step = options.step
        aggregate = options.aggregate
        self.wallOffset = wallOffset
        format = try NumberFormat(
            format: "%.\(options.decimals)f", prefix: options.prefix, suffix: options.suffix, groupsOfThree: true)
        places = options.decimals + 2
        self.indicator = indicator
        hasValue = seed != nil
        latest = seed?.latest ?? 0
        beforeNewest = seed?.beforeNewest ?? 0
        let empty = ChartPoints(newest: 0, values: Array(repeating: nil, count: chart.configuration.count))
        queue = try AnimationQueue(
            chart, value: seed?.points ?? empty, at: time, backlog: backlog, maxLag: maxLag, policy: policy)
        if let indicator, let newest = queue.target.last {
            indicatorMembers = indicator.members(target: newest, previous: nil)
        }
        writePoints(after: queue.target)
    }

    /// Writes the `pts` of the rest on ``queue``'s target and of the move to it from `before`.
    private mutating func writePoints(after before: ChartState) {
        let target = queue.target
        let steps = Int(min(max(target.newest - before.newest, 0), Int64(target.values.count)))
        let rest = target.values.dropLast()
        writtenPoints = [(rest, json(rest))]
        if steps > 0 {
            let moving = (Array(before.values.prefix(steps)) + target.values).dropLast()
            writtenPoints.append((moving, json(moving)))
        }
    }

    private func json(_ values: ArraySlice<Double?>) -> String {
        "[" + values.map { $0.map { jsonNumber($0, places: places) } ?? "null" }.joined(separator: ",") + "]"
    }

    mutating func apply(_ change: TileChange, at time: Double) throws {
        guard case .value(let value, let interval, let animated, let policy, let stored) = change else { return }
        // A committed change falls in the bucket of its commit time, the same on every node (and as the series
        // seeds it); one that is not stored, in the bucket of the node's wall clock now.
        let bucket = Int64(((stored?.time ?? time + wallOffset) / Double(step)).rounded(.down))
        let target = queue.target
        let previous = hasValue ? target.last : nil
        if !hasValue {
            let values = Array(repeating: nil, count: target.values.count - 1) + [value]
            try queue.restart(on: ChartPoints(newest: bucket, values: values), at: time)
            hasValue = true
            beforeNewest = 0
        } else {
            let later = bucket > target.newest
            let before = later ? latest : beforeNewest
            let point = aggregate == .last ? value : value - before
            let points = ChartPoints(newest: target.newest, values: target.values).moved(to: bucket, value: point)
            try queue.enqueue(points, at: time, interval: interval, animated: animated, policy: policy)
            beforeNewest = before
        }
        latest = value
        if let indicator, let newest = queue.target.last {
            indicatorMembers = indicator.members(target: newest, previous: previous ?? nil)
        }
        writePoints(after: target)
    }

    /// `{"pts":[…],"l":L,"s":S,"lo":A,"hi":B,"text":T,"target":V,"n":N}`: the points but the newest (`null` a gap), the
    /// newest point's value as shown, the slide in thousandths of a step, the range, the newest point written, its value
    /// and its bucket's number; then `behind` and the indicator's members.
    func state(at time: Double) -> TileState? {
        guard hasValue else { return nil }
        let shown = queue.state(at: time)
        let newest = queue.target.last
        let points = shown.values.dropLast()
        var members = [
            TileState.Member("pts", writtenPoints.first { $0.values == points }?.json ?? json(points)),
            TileState.Member("l", shown.last.map { jsonNumber($0, places: places) } ?? "null"),
            TileState.Member("s", String(TileState.thousandths(shown.shift))),
            TileState.Member("lo", jsonNumber(shown.low, places: places)),
            TileState.Member("hi", jsonNumber(shown.high, places: places)),
        ]
        if let newest {
            members.append(TileState.Member("text", JSONText.quoted(format.string(for: newest))))
            members.append(TileState.Member("target", jsonNumber(newest, places: 6)))
            members.append(TileState.Member("n", String(queue.target.newest)))
        }
        return TileState(members: members + behindMembers(at: time) + indicatorMembers)
    }
}
