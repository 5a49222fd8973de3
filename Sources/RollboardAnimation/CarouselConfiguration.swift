/// How a carousel advances.
public struct CarouselConfiguration: Hashable, Sendable {
    /// The number of slides; at least 1 (a single slide never moves).
    public var slides: Int
    /// Seconds between automatic advances (CustomBanner's default is 2).
    public var interval: Double
    /// Seconds a slide transition takes, ease-in-out; at most ``interval``.
    public var transition: Double

    /// Seconds between advances by default (CustomBanner's): the server's carousel tiles and `simulate carousel` too.
    public static let defaultInterval = 2.0
    /// Seconds a transition takes by default.
    public static let defaultTransition = 0.3

    /// Creates a configuration: by default a 2 s interval and a 0.3 s transition.
    public init(slides: Int, interval: Double = defaultInterval, transition: Double = defaultTransition) {
        self.slides = slides
        self.interval = interval
        self.transition = transition
    }

    /// Throws ``AnimationError/invalidConfiguration`` unless there is a slide, the interval is a
    /// positive finite number and the transition lies in [0, interval].
    public func validate() throws(AnimationError) {
        guard slides >= 1 else {
            throw AnimationError(.invalidConfiguration, "a carousel needs at least one slide, not \(slides)")
        }
        guard interval.isFinite && interval > 0 else {
            throw AnimationError(.invalidConfiguration, "carousel interval must be a positive number of seconds, not \(interval)")
        }
        guard transition.isFinite && transition >= 0 && transition <= interval else {
            throw AnimationError(.invalidConfiguration, "carousel transition must be 0…\(interval) seconds, not \(transition)")
        }
    }
}
