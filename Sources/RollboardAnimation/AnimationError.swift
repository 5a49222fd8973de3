/// Why a value, a setting or a command cannot be animated.
///
/// Errors compare equal when their ``kind`` matches, so `#expect(throws: AnimationError.tooWide)`
/// matches any too-wide error whatever its message says.
public struct AnimationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The category of an ``AnimationError``.
    public enum Kind: String, Hashable, Sendable {
        case notFinite
        case outOfRange
        case tooWide
        case invalidConfiguration
        case invalidFormat
        case invalidInterval
        case invalidTime
    }

    /// The category of the error.
    public let kind: Kind
    /// A one-line, human-readable explanation.
    public let message: String

    /// Creates an error of `kind` explained by `message`.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }

    public static func == (lhs: AnimationError, rhs: AnimationError) -> Bool { lhs.kind == rhs.kind }
    public func hash(into hasher: inout Hasher) { hasher.combine(kind) }

    /// A value is NaN or infinite.
    public static let notFinite = AnimationError(.notFinite, "value is not a finite number")
    /// A value lies outside what the animation can represent.
    public static let outOfRange = AnimationError(.outOfRange, "value is out of range")
    /// A value needs more digit columns than the odometer may show.
    public static let tooWide = AnimationError(.tooWide, "value needs more columns than the odometer has")
    /// A configuration setting is outside its allowed range.
    public static let invalidConfiguration = AnimationError(.invalidConfiguration, "invalid configuration")
    /// A printf-style format or grouping pattern is not understood.
    public static let invalidFormat = AnimationError(.invalidFormat, "invalid number format")
    /// An animation interval is negative or not finite.
    public static let invalidInterval = AnimationError(.invalidInterval, "interval must be a finite number of seconds, zero or more")
    /// A time is not a finite number of seconds.
    public static let invalidTime = AnimationError(.invalidTime, "time must be a finite number of seconds")
}
