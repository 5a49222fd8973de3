/// Options of a `wheel` tile: a position over a list of strings.
public struct WheelOptions: Sendable, Equatable {
    /// The labels, in wheel order (at least one).
    public var contents: [String]
    /// Seconds the wheel takes to ease to a new target.
    public var duration: Double

    public init(contents: [String], duration: Double = 0.5) {
        self.contents = contents
        self.duration = duration
    }
}
