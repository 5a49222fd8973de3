/// What the hub knows of one connected screen, for the list of screens.
struct ScreenStatus: Equatable, Sendable {
    var fps: Int
    var isPaused: Bool
    /// Frames the screen was due but could not take (its connection was backed up), since it connected.
    var framesSkipped: Int
}
