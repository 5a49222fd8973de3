import ArgumentParser
import RollboardAnimation
import RollboardNet

/// `rollboard simulate counter`: a number counting to its new value.
struct SimulateCounter: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "counter",
        abstract: "A counting number: {\"t\":…,\"value\":…,\"text\":\"…\"} per frame."
    )

    @OptionGroup var count: SimulateCount

    @Option(help: "Seconds the count takes (at least 0.3).")
    var duration = CounterConfiguration.defaultDuration

    @Option(parsing: .unconditional, help: "printf-style format: %d, %f or %.Nf (N ≤ 6), with literal text around it.")
    var format: String = "%f"

    @Option(parsing: .unconditional, help: "Grouping pattern such as ###,##0.00 or #,##0.")
    var grouping: String?

    @Option(parsing: .unconditional, help: "Text before the number.")
    var prefix: String = ""

    @Option(parsing: .unconditional, help: "Text after the number.")
    var suffix: String = ""

    @OptionGroup var rate: SimulateRate

    func run() throws {
        let numberFormat = try NumberFormat(format: format, grouping: grouping, prefix: prefix, suffix: suffix)
        let counter = try Counter(
            configuration: CounterConfiguration(duration: duration, easing: try count.parsedEasing(), format: numberFormat))
        try count.play(counter, rate: rate) { state, time in
            "{\"t\":\(SimulateOutput.number(time)),\"value\":\(SimulateOutput.number(state.value)),\"text\":\(JSONText.quoted(state.text))}"
        }
    }
}
