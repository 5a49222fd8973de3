package import RollboardConfig
package import RollboardStore

/// Which entry of a playlist shows at any moment, read off the wall clock against one shared epoch: every screen,
/// and every node started with the same playlist, shows the same entry at the same moment.
///
/// Pure: time (seconds since 1970) is an input.
struct PlaylistSchedule: Equatable {
    /// Each entry's seconds, in order.
    let durations: [Double]
    /// Seconds added to the wall clock before it is read against the rotation: 0 until an operator moves it.
    private(set) var offset = 0.0
    /// The entry shown while the rotation is held.
    private(set) var held: Int?

    init(durations: [Double]) {
        precondition(!durations.isEmpty && durations.allSatisfy { $0 > 0 }, "a playlist has entries of some length")
        self.durations = durations
    }

    /// One turn of the rotation, in seconds.
    var cycle: Double { durations.reduce(0, +) }

    /// The entry showing at `time`, and when it ends (`nil` while held).
    func entry(at time: Double) -> (index: Int, endsAt: Double?) {
        if let held { return (held, nil) }
        let position = Self.wrapped(time + offset, cycle)
        var start = 0.0
        for (index, duration) in durations.enumerated() {
            if position < start + duration { return (index, time + (start + duration - position)) }
            start += duration
        }
        return (0, time + durations[0])  // the position rounded up to a whole cycle
    }

    /// Stops the rotation on the entry showing at `time`.
    mutating func hold(at time: Double) {
        held = entry(at: time).index
    }

    /// Starts the rotation again from the beginning of the held entry, at `time`.
    mutating func resume(at time: Double) {
        guard let index = held else { return }
        held = nil
        show(index, at: time)
    }

    /// Shows entry `index` from `time` on (its full seconds); while held, it is the entry held.
    mutating func show(_ index: Int, at time: Double) {
        precondition(durations.indices.contains(index), "entry \(index) of \(durations.count)")
        if held != nil {
            held = index
            return
        }
        let start = durations[..<index].reduce(0, +)
        offset = Self.wrapped(start - time, cycle)
    }

    private static func wrapped(_ value: Double, _ modulus: Double) -> Double {
        let remainder = value.truncatingRemainder(dividingBy: modulus)
        return remainder < 0 ? remainder + modulus : remainder
    }
}
