import ArgumentParser
import RollboardAnimation
import RollboardNet

/// `rollboard simulate gauge`: a needle easing over a dial while the value counts.
struct SimulateGauge: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gauge",
        abstract: "A gauge's needle: {\"t\":…,\"value\":…,\"fraction\":…,\"text\":\"…\"} per frame (fraction 0 at --min, 1 at --max)."
    )

    @OptionGroup var count: SimulateCount

    @Option(parsing: .unconditional, help: "The value at the start of the dial.")
    var min: Double = 0

    @Option(parsing: .unconditional, help: "The value at the end of the dial (a tile's max, or its goal).")
    var max: Double = 100

    @Option(help: "Seconds the needle's move takes (at least 0.3).")
    var duration = GaugeConfiguration.defaultDuration

    @Option(parsing: .unconditional, help: "printf-style format of the value: %d, %f or %.Nf (N ≤ 6).")
    var format: String = "%d"

    @OptionGroup var rate: SimulateRate

    func run() throws {
        try SimulateOutput.validate(duration: duration)
        let counter = CounterConfiguration(
            duration: duration, easing: try count.parsedEasing(), format: try NumberFormat(format: format))
        let gauge = try Gauge(configuration: GaugeConfiguration(counter: counter, scale: GaugeScale(min: min, max: max)))
        try count.play(gauge, rate: rate) { state, time in
            "{\"t\":\(SimulateOutput.number(time)),\"value\":\(SimulateOutput.number(state.value)),"
                + "\"fraction\":\(SimulateOutput.number(gauge.fraction(of: state))),\"text\":\(JSONText.quoted(state.text))}"
        }
    }
}
