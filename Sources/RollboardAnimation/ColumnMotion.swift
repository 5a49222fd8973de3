/// The planned motion of one odometer column during one change (DPScrollNumberLabel's per-cell
/// animation), in strip coordinates where 10 and 0 show the same digit.
///
/// A column either makes one ease-out move (``single``) or plays three phases: start (from its
/// digit to the wrap, ease-in), `cycles` whole linear turns, and end (from the wrap to its new
/// digit, ease-out). Downward changes mirror upward ones.
struct ColumnMotion: Sendable {
    var upward: Bool
    var single: Bool
    var from: Double
    var to: Double
    var delay: Double
    /// The single move's duration, or the start phase's.
    var start: Double
    var cycle: Double
    var cycles: Double
    var end: Double

    /// Seconds from the change's start until this column rests on its new digit.
    var finish: Double { single ? delay + start : delay + start + cycle * cycles + end }

    static func single(from: Double, to: Double, delay: Double, duration: Double) -> ColumnMotion {
        ColumnMotion(upward: to >= from, single: true, from: from, to: to, delay: delay,
                     start: duration, cycle: 0, cycles: 0, end: 0)
    }

    /// The position in [0, 10) `elapsed` seconds after the change started.
    func position(at elapsed: Double) -> Double {
        var time = elapsed - delay
        if time <= 0 { return from }
        if single {
            if time >= start { return to }
            return from + (to - from) * CubicBezier.easeOut(time / start)
        }
        if time < start {
            let progress = CubicBezier.easeIn(time / start)
            return Self.wrapped(upward ? from + (10 - from) * progress : from * (1 - progress))
        }
        time -= start
        let cycling = cycle * cycles
        if time < cycling {
            var turn = time / cycle
            turn -= turn.rounded(.down)
            return Self.wrapped(upward ? 10 * turn : 10 - 10 * turn)
        }
        time -= cycling
        if time < end {
            let progress = CubicBezier.easeOut(time / end)
            return Self.wrapped(upward ? to * progress : 10 - (10 - to) * progress)
        }
        return to
    }

    private static func wrapped(_ position: Double) -> Double {
        position >= 10 ? position - 10 : (position < 0 ? 0 : position)
    }
}
