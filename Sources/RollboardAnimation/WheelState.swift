/// What a wheel shows at one instant: two labels, the top one squeezing away while the bottom one
/// grows in (WheelView).
public struct WheelState: Hashable, Sendable {
    /// The continuous position in [0, count − 1]: the integer part is the top label's index, the
    /// fractional part how far the wheel has turned towards the next one.
    public let position: Double
    /// The number of contents.
    public let count: Int

    /// The index of the top label's text.
    public var top: Int { min(Int(position), count - 1) }
    /// The index of the bottom label's text: the next one, or the last.
    public var bottom: Int { min(top + 1, count - 1) }
    /// How far the wheel has turned from the top label towards the bottom one, in [0, 1).
    public var offset: Double { position - Double(top) }
    /// The top label's vertical scale, 1 − offset.
    public var topScale: Double { 1 - offset }
    /// The bottom label's vertical scale, offset.
    public var bottomScale: Double { offset }
    /// The top label's vertical translation for a wheel of `height`: −height/2 × offset.
    public func topTranslation(height: Double) -> Double { -height / 2 * offset }
    /// The bottom label's vertical translation for a wheel of `height`: height/2 × (1 − offset).
    public func bottomTranslation(height: Double) -> Double { height / 2 * (1 - offset) }
}
