/// One name on a leaderboard and its score.
public struct LeaderboardEntry: Hashable, Sendable {
    public var name: String
    public var value: Double

    public init(name: String, value: Double) {
        self.name = name
        self.value = value
    }

    /// `entries` best first: higher values first, equal values by name (code points ascending), so every node and
    /// every screen orders ties the same way.
    public static func ranked(_ entries: [LeaderboardEntry]) -> [LeaderboardEntry] {
        entries.sorted { left, right in
            left.value != right.value ? left.value > right.value : left.name.unicodeScalars.lexicographicallyPrecedes(right.name.unicodeScalars)
        }
    }
}
