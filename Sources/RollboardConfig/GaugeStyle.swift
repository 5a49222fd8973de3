
/// How a gauge draws its dial.
public enum GaugeStyle: String, Sendable, Equatable, CaseIterable {
    /// A half-circle dial with a needle.
    case arc
    /// A horizontal bar that fills from the left.
    case bar
}
