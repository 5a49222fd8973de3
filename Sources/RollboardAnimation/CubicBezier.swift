/// A CSS/UIKit timing curve `cubic-bezier(x1, y1, x2, y2)` from (0, 0) to (1, 1).
///
/// Evaluating the curve at a time fraction `x` finds the curve parameter whose x coordinate is `x`
/// and returns the matching y coordinate (the progress), as browsers and Core Animation do.
public struct CubicBezier: Hashable, Sendable {
    /// Control points of the curve.
    public let x1: Double, y1: Double, x2: Double, y2: Double
    private let ax: Double, bx: Double, cx: Double
    private let ay: Double, by: Double, cy: Double

    /// Creates the curve with control points (x1, y1) and (x2, y2); x1 and x2 must lie in [0, 1].
    public init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        precondition((0...1).contains(x1) && (0...1).contains(x2), "cubic-bezier x coordinates must lie in [0, 1]")
        self.x1 = x1
        self.y1 = y1
        self.x2 = x2
        self.y2 = y2
        cx = 3 * x1
        bx = 3 * (x2 - x1) - cx
        ax = 1 - cx - bx
        cy = 3 * y1
        by = 3 * (y2 - y1) - cy
        ay = 1 - cy - by
    }

    /// `cubic-bezier(0, 0, 1, 1)`: constant speed.
    public static let linear = CubicBezier(0, 0, 1, 1)
    /// UIKit's ease-in, `cubic-bezier(0.42, 0, 1, 1)`.
    public static let easeIn = CubicBezier(0.42, 0, 1, 1)
    /// UIKit's ease-out, `cubic-bezier(0, 0, 0.58, 1)`.
    public static let easeOut = CubicBezier(0, 0, 0.58, 1)
    /// UIKit's ease-in-out (the default curve of a UIView animation), `cubic-bezier(0.42, 0, 0.58, 1)`.
    public static let easeInOut = CubicBezier(0.42, 0, 0.58, 1)

    /// The progress in [0, 1] at time fraction `x`; `x` outside [0, 1] is clamped.
    public func callAsFunction(_ x: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        if x1 == y1 && x2 == y2 { return x }
        return sampleY(solve(x))
    }

    private func sampleX(_ t: Double) -> Double { ((ax * t + bx) * t + cx) * t }
    private func sampleY(_ t: Double) -> Double { ((ay * t + by) * t + cy) * t }
    private func slopeX(_ t: Double) -> Double { (3 * ax * t + 2 * bx) * t + cx }

    /// The curve parameter t with x(t) = x: Newton's method, falling back to bisection.
    private func solve(_ x: Double) -> Double {
        let epsilon = 1e-12
        var t = x
        for _ in 0..<8 {
            let error = sampleX(t) - x
            if abs(error) < epsilon { return t }
            let slope = slopeX(t)
            if abs(slope) < 1e-9 { break }
            t -= error / slope
            if t < 0 || t > 1 { break }
        }
        var low = 0.0
        var high = 1.0
        t = x
        for _ in 0..<64 {
            let value = sampleX(t)
            if abs(value - x) < epsilon { break }
            if value < x { low = t } else { high = t }
            t = (low + high) / 2
        }
        return t
    }
}
