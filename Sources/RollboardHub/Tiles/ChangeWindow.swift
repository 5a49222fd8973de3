package import RollboardConfig
package import RollboardStore

/// When a tile that does not move by itself shows a producer's change: it says it may change from the change on,
/// for ``seconds``, long enough for a frame computed while the change was on its way to the hub (stamped a little
/// later than the change) to be followed by one that shows it. Frames in that window that find nothing new send
/// nothing.
enum ChangeWindow {
    static let seconds = 1.0

    /// The earliest time at or after `time` when a tile changed at `changedAt` may show something new; `nil` after
    /// the window.
    static func nextMotion(after time: Double, changedAt: Double) -> Double? {
        time <= changedAt + seconds ? max(time, changedAt) : nil
    }
}
