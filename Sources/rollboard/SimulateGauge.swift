import ArgumentParser
import RollboardAnimation
import RollboardNet

/// `rollboard simulate gauge`: a needle easing over a dial while the value counts.
struct SimulateGauge: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gauge",
        abstract: "A gauge's needle: {\"t\":…,\"value\":…,\"fraction\":…,\"text\":\"…\"} per frame (fraction 0 at --min, 1 at --max)."
    )

    @Option(parsing: .unconditional, help: "The value shown before t = 0.")
    var from: Double = 0

    @Option(parsing: .unconditional, help: "The value posted at t = 0.")
    var to: Double

    @Option(parsing: .unconditional, help: "The value at the start of the dial.")
    var min: Double = 0

    @Option(parsing: .unconditional, help: "The value at the end of the dial (a tile's max, or its goal).")
    var max: Double = 100

    @Option(help: "Seconds the needle's move takes (at least 0.3).")
    var duration = GaugeConfiguration.defaultDuration

    @Option(help: "easeInOut, easeIn, easeOut or linear.")
    var easing: String = CounterEasing.easeInOut.rawValue

    @Option(parsing: .unconditional, help: "printf-style format of the value: %d, %f or %.Nf (N ≤ 6).")
    var format: String = "%d"

    @OptionGroup var rate: SimulateRate

    func run() throws {
        guard let easing = CounterEasing(rawValue: easing) else {
            let names = CounterEasing.allCases.map(\.rawValue).joined(separator: ", ")
            throw ValidationError("--easing must be one of \(names), not \"\(easing)\"")
        }
        guard duration.isFinite, duration >= CounterConfiguration.minimumDuration else {
            throw ValidationError("--duration must be at least \(CounterConfiguration.minimumDuration) seconds, not \(duration)")
        }
        let counter = CounterConfiguration(duration: duration, easing: easing, format: try NumberFormat(format: format))
        let gauge = try Gauge(configuration: GaugeConfiguration(counter: counter, scale: GaugeScale(min: min, max: max)))
        var queue = try AnimationQueue(gauge, value: from, at: 0)
        try queue.enqueue(to, at: 0)
        try SimulateOutput.frames(
            fps: rate.fps,
            restTime: { queue.restTime },
            line: { time in
                let state = queue.state(at: time)
                return "{\"t\":\(SimulateOutput.number(time)),\"value\":\(SimulateOutput.number(state.value)),"
                    + "\"fraction\":\(SimulateOutput.number(gauge.fraction(of: state))),\"text\":\(JSONText.quoted(state.text))}"
            }
        )
    }
}
