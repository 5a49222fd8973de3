import ArgumentParser
import RollboardAnimation
import RollboardNet

/// `rollboard simulate counter`: a number counting to its new value.
struct SimulateCounter: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "counter",
        abstract: "A counting number: {\"t\":…,\"value\":…,\"text\":\"…\"} per frame."
    )

    @Option(parsing: .unconditional, help: "The value shown before t = 0.")
    var from: Double = 0

    @Option(parsing: .unconditional, help: "The value posted at t = 0.")
    var to: Double

    @Option(help: "Seconds the count takes (at least 0.3).")
    var duration = CounterConfiguration.defaultDuration

    @Option(help: "easeInOut, easeIn, easeOut or linear.")
    var easing: String = CounterEasing.easeInOut.rawValue

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
        guard let easing = CounterEasing(rawValue: easing) else {
            let names = CounterEasing.allCases.map(\.rawValue).joined(separator: ", ")
            throw ValidationError("--easing must be one of \(names), not \"\(easing)\"")
        }
        let numberFormat = try NumberFormat(format: format, grouping: grouping, prefix: prefix, suffix: suffix)
        let counter = try Counter(configuration: CounterConfiguration(duration: duration, easing: easing, format: numberFormat))
        var queue = try AnimationQueue(counter, value: from, at: 0)
        try queue.enqueue(to, at: 0)
        try SimulateOutput.frames(
            fps: rate.fps,
            restTime: { queue.restTime },
            line: { time in
                let state = queue.state(at: time)
                return "{\"t\":\(SimulateOutput.number(time)),\"value\":\(SimulateOutput.number(state.value)),\"text\":\(JSONText.quoted(state.text))}"
            }
        )
    }
}
