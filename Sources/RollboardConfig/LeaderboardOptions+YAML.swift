import RollboardAnimation
package import RollboardCore

extension LeaderboardOptions {
    /// Every YAML key a leaderboard tile takes beside the common ones.
    static let keys = ["size", "format", "grouping", "easing", "duration", "prefix", "suffix", "compact"] + NumberStyle.keys

    /// Reads `size` and the counter's keys; `nil` when one is wrong (reported).
    init?(reader: YAMLMappingReader) {
        guard let number = CounterOptions(reader: reader) else { return nil }
        self.init(number: number)
        if reader.node("size") != nil {
            guard let size = reader.int("size", in: 1...Leaderboard.maximumSize) else { return nil }
            self.size = size
        }
    }
}
