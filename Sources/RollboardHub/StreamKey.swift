
/// Which ``FrameStream`` a screen is on: its frame rate, and whether it is calm (reduced motion: only final states,
/// no frames in between).
struct StreamKey: Hashable, Comparable, Sendable, ExpressibleByIntegerLiteral, CustomStringConvertible {
    var fps: Int
    var isCalm = false

    init(fps: Int, isCalm: Bool = false) {
        self.fps = fps
        self.isCalm = isCalm
    }

    /// A full-motion stream at `fps`.
    init(integerLiteral fps: Int) {
        self.init(fps: fps)
    }

    static func < (lhs: StreamKey, rhs: StreamKey) -> Bool {
        (lhs.isCalm ? 1 : 0, lhs.fps) < (rhs.isCalm ? 1 : 0, rhs.fps)
    }

    var description: String { isCalm ? "\(fps) fps calm" : "\(fps) fps" }
}
