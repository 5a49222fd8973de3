/// How a counter counts and formats.
public struct CounterConfiguration: Hashable, Sendable {
    /// The shortest counting duration in seconds (FlickerNumber's lower bound).
    public static let minimumDuration = 0.3
    /// Seconds a change takes by default (QCountingLabel's): the server's counter tiles and `simulate counter` too.
    public static let defaultDuration = 2.0

    /// Seconds a change takes unless the change gives its own interval; at least ``minimumDuration``.
    public var duration: Double
    /// How the value moves over the duration.
    public var easing: CounterEasing
    /// How values become text.
    public var format: NumberFormat

    /// Creates a configuration: by default 2 s and ease-in-out (QCountingLabel's defaults).
    public init(duration: Double = defaultDuration, easing: CounterEasing = .easeInOut, format: NumberFormat) {
        self.duration = duration
        self.easing = easing
        self.format = format
    }

    /// Throws ``AnimationError/invalidConfiguration`` unless the duration is finite and not negative.
    public func validate() throws(AnimationError) {
        guard duration.isFinite && duration >= 0 else {
            throw AnimationError(.invalidConfiguration, "counter duration must be a finite number of seconds, not \(duration)")
        }
    }
}
