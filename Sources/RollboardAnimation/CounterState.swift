/// What a counter shows at one instant.
public struct CounterState: Hashable, Sendable {
    /// The current (unrounded) value.
    public let value: Double
    /// The formatted text; it never shows a number past ``target``.
    public let text: String
    /// The value the running count heads for (the shown value at rest).
    public let target: Double
}
