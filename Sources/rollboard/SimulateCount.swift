import ArgumentParser
import RollboardAnimation

/// The options every counting kind of `rollboard simulate` shares (a counter, a gauge's needle): the value before
/// t = 0, the one posted at t = 0, and the easing of the count.
struct SimulateCount: ParsableArguments {
    @Option(parsing: .unconditional, help: "The value shown before t = 0.")
    var from: Double = 0

    @Option(parsing: .unconditional, help: "The value posted at t = 0.")
    var to: Double

    @Option(help: "easeInOut, easeIn, easeOut or linear.")
    var easing: String = CounterEasing.easeInOut.rawValue

    /// `--easing` as the animation's easing, or a usage error naming the ones there are.
    func parsedEasing() throws -> CounterEasing {
        try SimulateOutput.easing(easing)
    }

    /// Prints one line per frame while `animator` moves from `from` to `to` (posted at t = 0), until it rests.
    func play<Animator: TileAnimator>(
        _ animator: Animator, rate: SimulateRate, line: @escaping (Animator.State, Double) -> String
    ) throws where Animator.Value == Double {
        var queue = try AnimationQueue(animator, value: from, at: 0)
        try queue.enqueue(to, at: 0)
        try SimulateOutput.frames(fps: rate.fps, restTime: { queue.restTime }, line: { time in line(queue.state(at: time), time) })
    }
}
