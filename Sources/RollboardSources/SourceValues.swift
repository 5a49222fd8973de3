public import RollboardAnimation

/// What one fetch of a source gives: a value for each of its metrics and the entries of each of its leaderboards.
/// A dictionary literal is metrics only.
public struct SourceValues: Sendable, Equatable, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    public var metrics: [String: Double]
    /// Each leaderboard's whole board, in the order the upstream gave it.
    public var leaderboards: [String: [LeaderboardEntry]]

    /// No values.
    public init() {
        self.init(metrics: [:], leaderboards: [:])
    }

    public init(metrics: [String: Double] = [:], leaderboards: [String: [LeaderboardEntry]] = [:]) {
        self.metrics = metrics
        self.leaderboards = leaderboards
    }

    public init(dictionaryLiteral elements: (String, Double)...) {
        self.init(metrics: Dictionary(elements) { $1 })
    }

    public var isEmpty: Bool { metrics.isEmpty && leaderboards.isEmpty }

    /// The values that differ from `committed`'s.
    public func changed(since committed: SourceValues) -> SourceValues {
        SourceValues(
            metrics: metrics.filter { committed.metrics[$0.key] != $0.value },
            leaderboards: leaderboards.filter { committed.leaderboards[$0.key] != $0.value })
    }

    /// These values with `newer`'s in place of theirs.
    public func merging(_ newer: SourceValues) -> SourceValues {
        SourceValues(
            metrics: metrics.merging(newer.metrics) { $1 }, leaderboards: leaderboards.merging(newer.leaderboards) { $1 })
    }

    public var description: String {
        leaderboards.isEmpty ? "\(metrics)" : "\(metrics) \(leaderboards.mapValues { $0.map { "\($0.name)=\($0.value)" } })"
    }
}
