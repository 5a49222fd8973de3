
/// How a tile's window reduces its metric's changes to one number (`aggregate`).
package enum WindowAggregate: String, CaseIterable, Sendable {
    /// The newest value in the window.
    case last
    /// The sum of the increments posted in the window (a running total of the period).
    case sum
    /// How many changes the window holds.
    case count
    case min, max
    /// The mean of the values in the window.
    case avg
    /// The newest value minus the value the window started from (the last one before it, else its first).
    case change
}
