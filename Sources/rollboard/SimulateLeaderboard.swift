import ArgumentParser
import RollboardAnimation
import RollboardNet

/// `rollboard simulate leaderboard`: rows sliding to new ranks while scores count, names entering and leaving.
struct SimulateLeaderboard: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "leaderboard",
        abstract: "A leaderboard's rows: {\"t\":…,\"rows\":[{\"name\",\"rank\",\"line\",\"opacity\",\"text\"},…]} per frame."
    )

    @Option(help: "The board shown before t = 0, as NAME=SCORE,NAME=SCORE,…")
    var from: String

    @Option(help: "The board posted at t = 0, as NAME=SCORE,NAME=SCORE,…")
    var to: String

    @Option(help: "Rows shown (1–\(Leaderboard.maximumSize)).")
    var size = Leaderboard.defaultSize

    @Option(help: "Seconds a change takes (at least 0.3).")
    var duration = CounterConfiguration.defaultDuration

    @Option(help: "easeInOut, easeIn, easeOut or linear.")
    var easing: String = CounterEasing.easeInOut.rawValue

    @Option(parsing: .unconditional, help: "printf-style format of the scores: %d, %f or %.Nf (N ≤ 6).")
    var format: String = "%d"

    @OptionGroup var rate: SimulateRate

    /// `NAME=SCORE,…` as entries; a `ValidationError` naming `option` when it is not that.
    private static func board(_ text: String, option: String) throws -> [LeaderboardEntry] {
        try text.split(separator: ",").map { pair in
            guard let equals = pair.lastIndex(of: "="), let score = Double(pair[pair.index(after: equals)...]),
                score.isFinite, equals > pair.startIndex
            else { throw ValidationError("\(option) must be NAME=SCORE,NAME=SCORE,…, not \(text)") }
            return LeaderboardEntry(name: String(pair[..<equals]), value: score)
        }
    }

    func run() throws {
        let easing = try SimulateOutput.easing(easing)
        try SimulateOutput.validate(duration: duration)
        let counter = CounterConfiguration(duration: duration, easing: easing, format: try NumberFormat(format: format))
        let leaderboard: Leaderboard
        do {
            leaderboard = try Leaderboard(size: size, counter: counter)
        } catch {
            throw ValidationError("--size: \(error)")
        }
        var queue = try AnimationQueue(leaderboard, value: Self.board(from, option: "--from"), at: 0)
        try queue.enqueue(Self.board(to, option: "--to"), at: 0)
        try SimulateOutput.frames(
            fps: rate.fps,
            restTime: { queue.restTime },
            line: { time in
                let rows = queue.state(at: time).rows.map { row in
                    "{\"name\":\(JSONText.quoted(row.name)),\"rank\":\(row.rank),"
                        + "\"line\":\(SimulateOutput.number(row.position)),\"opacity\":\(SimulateOutput.number(row.opacity)),"
                        + "\"text\":\(JSONText.quoted(row.text))}"
                }
                return "{\"t\":\(SimulateOutput.number(time)),\"rows\":[\(rows.joined(separator: ","))]}"
            }
        )
    }
}
