import ArgumentParser
import RollboardAnimation

/// The frame loop and JSON formatting shared by the `simulate` kinds.
enum SimulateOutput {
    /// Prints one line per frame at t = k / fps from t = 0, applying `posts` (sorted times) as
    /// their time comes, until the animation rests and nothing more is to be posted; the last line
    /// is at exactly the rest time.
    static func frames(
        fps: Double,
        posts: [Double] = [],
        post: (Int) throws(AnimationError) -> Void = { _ in },
        restTime: () -> Double,
        line: (Double) -> String
    ) throws(AnimationError) {
        var output = ""
        var nextPost = 0
        var lastPost = 0.0
        var frame = 0
        while true {
            let time = Double(frame) / fps
            while nextPost < posts.count && posts[nextPost] <= time {
                try post(nextPost)
                lastPost = posts[nextPost]
                nextPost += 1
            }
            let rest = max(restTime(), lastPost)
            let done = nextPost == posts.count && rest <= time
            output += line(done ? rest : time)
            output += "\n"
            if output.utf8.count > 1 << 16 {
                print(output, terminator: "")
                output = ""
            }
            if done { break }
            frame += 1
        }
        print(output, terminator: "")
    }

    /// Throws unless `fps` is a sensible frame rate.
    static func validate(fps: Double) throws {
        guard fps.isFinite && fps > 0 && fps <= 1000 else {
            throw ValidationError("--fps must be a number of frames per second in (0, 1000], not \(fps)")
        }
    }

    /// Throws unless `seconds` (`--seconds`, how long to simulate) is 0…86400.
    static func validate(seconds: Double) throws {
        guard seconds.isFinite && seconds >= 0 && seconds <= 86_400 else {
            throw ValidationError("--seconds must be 0…86400, not \(seconds)")
        }
    }

    /// `--easing` as the animation's easing, or a usage error naming the ones there are.
    static func easing(_ name: String) throws -> CounterEasing {
        guard let easing = CounterEasing(rawValue: name) else {
            let names = CounterEasing.allCases.map(\.rawValue).joined(separator: ", ")
            throw ValidationError("--easing must be one of \(names), not \"\(name)\"")
        }
        return easing
    }

    /// Throws unless `duration` (`--duration` of a count) is at least ``CounterConfiguration/minimumDuration``.
    static func validate(duration: Double) throws {
        guard duration.isFinite, duration >= CounterConfiguration.minimumDuration else {
            throw ValidationError("--duration must be at least \(CounterConfiguration.minimumDuration) seconds, not \(duration)")
        }
    }

    /// `value` rounded to 4 decimal places, printed without trailing zeros (`2.01`, `5`, `-0.5`).
    static func number(_ value: Double) -> String {
        let scaled = (value * 10_000).rounded()
        guard scaled.isFinite, abs(scaled) < 9e15 else { return value.isFinite ? String(value) : "null" }
        let units = Int64(scaled)
        let magnitude = units.magnitude
        var fraction = magnitude % 10_000
        var text = units < 0 ? "-" : ""
        text += String(magnitude / 10_000)
        if fraction > 0 {
            var places = 4
            while fraction % 10 == 0 { fraction /= 10; places -= 1 }
            let digits = String(fraction)
            text += "." + String(repeating: "0", count: places - digits.count) + digits
        }
        return text
    }

    /// A digit-column position rounded like ``number(_:)``, folded back into [0, 10).
    static func position(_ value: Double) -> String {
        let rounded = (value * 10_000).rounded() / 10_000
        return number(rounded >= 10 ? rounded - 10 : rounded)
    }
}
