
/// Where a producer wants a wheel to go: a fraction of the way round, or a label's index.
public enum WheelTarget: Sendable, Equatable {
    /// In [0, 1]; the position is `contents.count × progress`.
    case progress(Double)
    case index(Int)
}
