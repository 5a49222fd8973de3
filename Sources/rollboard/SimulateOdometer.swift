import ArgumentParser
import RollboardAnimation

/// `rollboard simulate odometer`: rolling digit columns.
struct SimulateOdometer: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "odometer",
        abstract: "Rolling digit columns: {\"t\":…,\"digits\":[…],\"negative\":…} per frame."
    )

    @Option(parsing: .unconditional, help: "The value shown before t = 0.")
    var from: Double

    @Option(parsing: .unconditional, help: "The value posted at t = 0.")
    var to: Double

    @Option(help: "Seconds the whole change takes, exactly (default: from the size of the change, within --max-duration).")
    var interval: Double?

    @Option(name: .customLong("max-duration"), help: "The longest a change may take, in seconds (default: the article's timeline, however long; the server's tiles default to 3).")
    var maxDuration: Double?

    @Option(name: .customLong("max-lag"), help: "The farthest the screen may fall behind the newest value, in seconds (default: twice --max-duration when it is given, as on the server).")
    var maxLag: Double?

    @Option(help: "A fixed number of columns, 1…15.")
    var columns: Int?

    @Option(name: .customLong("max-columns"), help: "Columns grow on the left up to this many, 1…15 (default \(OdometerConfiguration.defaultMaximumColumns)).")
    var maxColumns: Int?

    @Option(help: "Fixed decimal places, 0…6.")
    var decimals: Int = 0

    @Option(name: .customLong("then"), parsing: .unconditionalSingleValue, help: ArgumentHelp("Also post VALUE at T seconds (repeatable).", valueName: "T:VALUE"))
    var posts: [String] = []

    @OptionGroup var rate: SimulateRate

    func run() throws {
        if columns != nil && maxColumns != nil {
            throw ValidationError("use either --columns or --max-columns, not both")
        }
        let layout: OdometerConfiguration.Columns = columns.map { .fixed($0) } ?? .growing(maximum: maxColumns ?? OdometerConfiguration.defaultMaximumColumns)
        let odometer = try Odometer(
            configuration: OdometerConfiguration(columns: layout, decimals: decimals, maxDuration: maxDuration))
        let changes = try posts.map(Self.parsePost).enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
        for change in changes { _ = try odometer.settle(change.value, after: nil) }
        var queue = try AnimationQueue(odometer, value: from, at: 0, maxLag: maxLag ?? maxDuration.map { 2 * $0 })
        try queue.enqueue(to, at: 0, interval: interval)
        try SimulateOutput.frames(
            fps: rate.fps,
            posts: changes.map(\.time),
            post: { (index: Int) throws(AnimationError) in try queue.enqueue(changes[index].value, at: changes[index].time) },
            restTime: { queue.restTime },
            line: { time in
                let state = queue.state(at: time)
                let digits = state.digits.map(SimulateOutput.position).joined(separator: ",")
                return "{\"t\":\(SimulateOutput.number(time)),\"digits\":[\(digits)],\"negative\":\(state.negative)}"
            }
        )
    }

    /// Parses `T:VALUE`.
    static func parsePost(_ text: String) throws -> (time: Double, value: Double) {
        let parts = text.split(separator: ":", maxSplits: 1)
        guard parts.count == 2, let time = Double(parts[0]), time.isFinite, time >= 0, let value = Double(parts[1]) else {
            throw ValidationError("--then takes T:VALUE with T a time in seconds ≥ 0, not \"\(text)\"")
        }
        return (time, value)
    }
}
