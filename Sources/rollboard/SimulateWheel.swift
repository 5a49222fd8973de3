import ArgumentParser
import RollboardAnimation
import RollboardNet

/// `rollboard simulate wheel`: a wheel over strings moving between progress values.
struct SimulateWheel: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wheel",
        abstract: "A wheel of strings: {\"t\":…,\"position\":…,\"top\":…,\"bottom\":…,\"offset\":…} per frame."
    )

    @Option(parsing: .unconditional, help: "The strings, separated by commas.")
    var contents: String

    @Option(parsing: .unconditional, help: "The progress (0…1) shown before t = 0.")
    var from: Double = 0

    @Option(parsing: .unconditional, help: "The progress (0…1) posted at t = 0.")
    var to: Double

    @Option(help: "Seconds a move takes.")
    var duration = Wheel.defaultDuration

    @OptionGroup var rate: SimulateRate

    func run() throws {
        let wheel = try Wheel(contents: contents.split(separator: ",", omittingEmptySubsequences: false).map(String.init), duration: duration)
        var queue = try AnimationQueue(wheel, value: wheel.position(forProgress: from), at: 0)
        try queue.enqueue(wheel.position(forProgress: to), at: 0)
        try SimulateOutput.frames(
            fps: rate.fps,
            restTime: { queue.restTime },
            line: { time in
                let state = queue.state(at: time)
                return "{\"t\":\(SimulateOutput.number(time)),\"position\":\(SimulateOutput.number(state.position)),"
                    + "\"top\":\(JSONText.quoted(wheel.contents[state.top])),"
                    + "\"bottom\":\(JSONText.quoted(wheel.contents[state.bottom])),"
                    + "\"offset\":\(SimulateOutput.number(state.offset))}"
            }
        )
    }
}
