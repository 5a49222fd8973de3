package import RollboardAnimation
package import RollboardCore

/// Options of a `chart` tile: its metric's series over a sliding window, one point per `step`, moving on the server.
public struct ChartOptions: Sendable, Equatable {
    /// What a bucket's point is.
    public enum Aggregate: String, Sendable, Equatable, CaseIterable {
        /// The last value committed in the bucket (a level: stock, temperature, queue length).
        case last
        /// What the bucket added: its last value minus the last value before it (0 before the first change); for a
        /// metric fed by increments, the sum of the bucket's increments (orders per hour from a running total).
        case sum
    }

    public var style: ChartStyle = .line
    /// The window's length in seconds (`window: "last 24h"`).
    public var window: Double = ChartOptions.defaultWindow
    /// The bucket width in seconds: a whole number of minutes, of hours from an hour on.
    public var step: Int64 = ChartOptions.defaultStep(window: ChartOptions.defaultWindow) ?? 900
    public var aggregate: Aggregate = .last
    public var duration: Double = ChartConfiguration.defaultDuration
    public var maxDuration: Double = ChartConfiguration.defaultMaxDuration
    public var easing: Easing = .easeInOut
    /// Decimals of the newest value's text.
    public var decimals = 0
    public var prefix = ""
    public var suffix = ""

    /// The window of a chart that names none: a day.
    public static let defaultWindow = 86_400.0
    /// The most points a chart shows.
    public static let maxPoints = 120
    /// The steps a chart picks from when it names none, shortest first.
    static let steps: [Int64] = [60, 120, 300, 600, 900, 1_800, 3_600, 7_200, 10_800, 21_600, 43_200, 86_400]

    public init() {}

    /// The number of points: the window over the step.
    public var count: Int { Int(window / Double(step)) }

    /// The shortest of ``steps`` that divides `window` into 2 to ``maxPoints`` buckets, or `nil`.
    static func defaultStep(window: Double) -> Int64? {
        steps.first { Int64(window) % $0 == 0 && (2...Double(maxPoints)).contains(window / Double($0)) }
    }

    /// What is wrong with `step` for `window` (names the reason), or `nil`.
    static func stepProblem(_ step: Int64, window: Double) -> String? {
        if step % 60 != 0 || (step >= 3_600 && step % 3_600 != 0) {
            return "must be a whole number of minutes (of hours from 1h on), got \(step) s"
        }
        if Int64(window) % step != 0 { return "must divide the window (\(Int(window)) s) evenly, got \(step) s" }
        let count = Int64(window) / step
        if count > Int64(maxPoints) {
            return "gives \(count) points over the window; at most \(maxPoints) (take a step of at least "
                + "\(Int64(window) / Int64(maxPoints) / 60) minutes)"
        }
        if count < 2 { return "gives \(count) point over the window; a chart needs at least 2" }
        return nil
    }

    /// The chart's motion. The range follows the data (and 0 for bars), never stretched to a far goal: the page
    /// marks a goal outside the range at the plot's edge.
    package func configuration(goal: Double?) -> ChartConfiguration {
        ChartConfiguration(
            count: count, duration: duration, maxDuration: maxDuration,
            easing: CounterEasing(rawValue: easing.rawValue) ?? .easeInOut,
            anchors: style == .bars ? [0] : [])
    }
}
