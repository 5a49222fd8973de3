package import RollboardMetrics

/// What the hub knows of one connected screen, for the list of screens.
package struct ScreenStatus: Equatable, Sendable {
    package var fps: Int
    package var isPaused: Bool
    /// Frames the screen was due but could not take (its connection was backed up), since it connected.
    package var framesSkipped: Int
}
