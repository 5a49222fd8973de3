import ArgumentParser
import RollboardAnimation
import RollboardNet

/// How a pushed metric value plays: `--increment`, `--interval`, `--no-animation`, `--policy`. They apply to
/// `ID VALUE` and to every line of a batch of lines.
struct PushValueOptions: ParsableArguments {
    @Flag(help: "VALUE is an amount to add to the metric's latest value (the server computes the total).")
    var increment = false

    @Option(help: "Seconds the whole move takes.")
    var interval: Double?

    @Flag(help: "Jump to the value without animating.")
    var noAnimation = false

    @Option(
        help: ArgumentHelp(
            "What the tile does with a value that arrives while it animates, instead of its configured queue: "
                + "fifo waits its turn, latest skips what still waits, retarget bends the running move.",
            valueName: "fifo|latest|retarget"),
        transform: { name in
            guard let policy = QueuePolicy(rawValue: name) else {
                throw ValidationError("must be fifo, latest or retarget")
            }
            return policy
        })
    var policy: QueuePolicy?

    func validate() throws {
        if let interval, !(interval.isFinite && interval > 0) {
            throw ValidationError("--interval must be a positive number of seconds")
        }
    }

    /// The options given, by name, for refusing them where they do not apply.
    var given: [String] {
        [
            increment ? "--increment" : nil, interval.map { _ in "--interval" }, noAnimation ? "--no-animation" : nil,
            policy.map { _ in "--policy" },
        ].compactMap(\.self)
    }

    /// The JSON object of one value, `number` a JSON number literal, with these options (and `id`, for a batch
    /// item): `{"id":"revenue","value":12.5,"interval":2.0,"animated":false,"policy":"latest"}`, with `increment`
    /// in place of `value` under `--increment`.
    func object(value number: String, id: String? = nil) -> String {
        var object = "{"
        if let id { object += "\"id\":\(JSONText.quoted(id)),"}
        object += (increment ? "\"increment\":" : "\"value\":") + number
        if let interval { object += ",\"interval\":\(interval)" }
        if noAnimation { object += ",\"animated\":false" }
        if let policy { object += ",\"policy\":\"\(policy.rawValue)\"" }
        return object + "}"
    }
}
