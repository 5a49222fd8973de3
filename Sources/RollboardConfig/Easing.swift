
/// The easing curves of a counter (rate 3).
public enum Easing: String, Sendable, Equatable, CaseIterable {
    case easeInOut, easeIn, easeOut, linear
}
