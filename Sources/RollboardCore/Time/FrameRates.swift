/// The frame rates a screen may get, written once: the settings' `defaultFPS` and `maxFPS` lie in it
/// (`ServerSettings.Limits.fpsRange`), a screen's `fps` message and its reports are checked against it, and no screen is
/// driven faster.
package enum FrameRates {
    package static let range = 1...60
}
