public import RollboardAnimation

/// Options of a `wheel` tile: a position over a list of strings.
public struct WheelOptions: Sendable, Equatable {
    /// The labels, in wheel order (at least one).
    public var contents: [String]
    /// Seconds the wheel takes to ease to a new target.
    public var duration: Double
    /// CSS colours (`#rgb` or `#rrggbb`) of some labels, by label; `nil` or a missing label uses the theme's text
    /// colour.
    public var colors: [String: String]?

    public init(contents: [String], duration: Double = Wheel.defaultDuration, colors: [String: String]? = nil) {
        self.contents = contents
        self.duration = duration
        self.colors = colors
    }
}
