import ArgumentParser
import RollboardAnimation

/// `rollboard simulate chart`: a chart gaining a point (or its newest point moving) while the range eases.
struct SimulateChart: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chart",
        abstract: "A chart's move: {\"t\":…,\"shift\":…,\"low\":…,\"high\":…,\"values\":[…]} per frame (shift in steps, "
            + "null a gap; point i is drawn at step i − shift)."
    )

    @Option(help: "The points shown before t = 0, oldest first, as V,V,,V (an empty item is a gap).")
    var from: String

    @Option(parsing: .unconditional, help: "The value posted at t = 0.")
    var to: Double

    @Option(help: "How many buckets later than the newest point the value lands (0: in the same bucket).")
    var steps = 1

    @Option(help: "Seconds a move takes.")
    var duration = ChartConfiguration.defaultDuration

    @Option(help: "The longest a move may take.")
    var maxDuration = ChartConfiguration.defaultMaxDuration

    @Option(help: "Seconds the producer asks the move to take (cut to --max-duration).")
    var interval: Double?

    @Option(help: "easeInOut, easeIn, easeOut or linear.")
    var easing: String = CounterEasing.easeInOut.rawValue

    @Option(parsing: .unconditional, help: "A goal line the range always spans.")
    var goal: Double?

    @Flag(help: "Bars: the range always spans 0.")
    var bars = false

    @OptionGroup var rate: SimulateRate

    func run() throws {
        let easing = try SimulateOutput.easing(easing)
        let values = try from.split(separator: ",", omittingEmptySubsequences: false).map { item -> Double? in
            if item.isEmpty { return nil }
            guard let value = Double(item), value.isFinite else {
                throw ValidationError("--from must be numbers (or empty items for gaps) joined by commas, not \(from)")
            }
            return value
        }
        guard steps >= 0 else { throw ValidationError("--steps must be 0 or more, not \(steps)") }
        let chart: Chart
        do {
            chart = try Chart(configuration: ChartConfiguration(
                count: values.count, duration: duration, maxDuration: maxDuration, easing: easing,
                anchors: (goal.map { [$0] } ?? []) + (bars ? [0] : [])))
        } catch {
            throw ValidationError("\(error)")
        }
        let start = ChartPoints(newest: 0, values: values)
        var queue = try AnimationQueue(chart, value: start, at: 0)
        try queue.enqueue(start.moved(to: Int64(steps), value: to), at: 0, interval: interval)
        try SimulateOutput.frames(
            fps: rate.fps, restTime: { queue.restTime },
            line: { time in
                let state = queue.state(at: time)
                let points = state.values.map { $0.map(SimulateOutput.number) ?? "null" }
                return "{\"t\":\(SimulateOutput.number(time)),\"shift\":\(SimulateOutput.number(state.shift)),"
                    + "\"low\":\(SimulateOutput.number(state.low)),\"high\":\(SimulateOutput.number(state.high)),"
                    + "\"values\":[\(points.joined(separator: ","))]}"
            })
    }
}
