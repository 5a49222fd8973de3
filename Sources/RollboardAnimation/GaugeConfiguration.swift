/// How a gauge moves and what its dial spans.
public struct GaugeConfiguration: Hashable, Sendable {
    /// Seconds a needle's move takes by default: the server's gauge tiles and `simulate gauge`.
    public static let defaultDuration = 1.0

    /// The needle's timing (duration and easing) and how the value is written beside it.
    public var counter: CounterConfiguration
    /// The dial's ends.
    public var scale: GaugeScale

    public init(counter: CounterConfiguration, scale: GaugeScale) {
        self.counter = counter
        self.scale = scale
    }
}
