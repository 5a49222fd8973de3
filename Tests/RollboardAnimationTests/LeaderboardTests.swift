import RollboardAnimation
import Testing

@Suite("Leaderboard")
struct LeaderboardTests {
    func leaderboard(size: Int = 3, duration: Double = 1, easing: CounterEasing = .linear) throws -> Leaderboard {
        try Leaderboard(
            size: size, counter: CounterConfiguration(duration: duration, easing: easing, format: NumberFormat(format: "%d")))
    }

    static func entries(_ pairs: KeyValuePairs<String, Double>) -> [LeaderboardEntry] {
        pairs.map { LeaderboardEntry(name: $0.key, value: $0.value) }
    }

    /// The row named `name` in `state`.
    func row(_ name: String, _ state: LeaderboardState) throws -> LeaderboardRow {
        try #require(state.rows.first { $0.name == name }, "no row \(name) in \(state.rows.map(\.name))")
    }

    @Test("rows are the best `size` entries, higher first, equal scores by name, sharing their rank")
    func ordering() throws {
        let state = try leaderboard(size: 4).settle(
            Self.entries(["dave": 5, "Bob": 9, "alice": 9, "Carol": 12, "Eve": 1, "Bea": 9]), after: nil)
        #expect(state.rows.map(\.name) == ["Carol", "Bea", "Bob", "alice"])
        #expect(state.rows.map(\.rank) == [1, 2, 2, 2])
        #expect(state.rows.map(\.position) == [0, 1, 2, 3])
        #expect(state.rows.allSatisfy { $0.opacity == 1 })
        #expect(state.entries.map(\.name) == ["Carol", "Bea", "Bob", "alice", "dave", "Eve"])
    }

    @Test("the same board in any order gives the same rows")
    func stableTies() throws {
        let board = try leaderboard()
        let forward = Self.entries(["Ann": 3, "Ben": 3, "Cat": 3, "Dan": 3])
        #expect(try board.settle(forward, after: nil) == board.settle(forward.reversed(), after: nil))
        #expect(try board.settle(forward.reversed(), after: nil).rows.map(\.name) == ["Ann", "Ben", "Cat"])
    }

    @Test("a size outside 1…50 and a non-finite score are refused")
    func refusals() throws {
        #expect(throws: AnimationError.self) { try leaderboard(size: 0) }
        #expect(throws: AnimationError.self) { try leaderboard(size: 51) }
        #expect(throws: AnimationError.self) { try leaderboard().settle(Self.entries(["A": .nan]), after: nil) }
        #expect(throws: AnimationError.self) { try leaderboard().settle(Self.entries(["A": 1e16]), after: nil) }
    }

    // Alice 10 (line 0), Bob 8 (1), Carol 6 (2), Dave 1 (below); then Carol 11, Dave 9, Alice 7, Bob 2 (three
    // lines, linear, 2 s): Bob leaves and Carol, who must pass Alice, jumps — both fade out where they stand in the
    // first third; Alice slides 0 → 2 in the second; Carol and Dave (entering) fade in on lines 0 and 1 in the last.
    @Test("rows that leave or jump fade out, the others slide without crossing, then entering and jumping rows fade in",
          arguments: [
              // elapsed (of 2 s), Carol (line, opacity, rank), Dave opacity, Alice (line, rank), Bob opacity
              (0.0, 2.0, 1.0, 3, 0.0, 0.0, 1, 1.0),
              (0.25, 2.0, 0.25, 3, 0.0, 0.0, 1, 0.25),
              (0.5, 2.0, 0.0, 3, 0.0, 1.0, 3, 0.0),
              (0.75, 0.0, 0.25, 1, 0.25, 2.0, 3, 0.0),
          ])
    func motion(
        elapsed: Double, carol: Double, carolOpacity: Double, carolRank: Int, daveOpacity: Double, alice: Double,
        aliceRank: Int, bobOpacity: Double
    ) throws {
        let board = try leaderboard(duration: 2)
        var queue = try AnimationQueue(board, value: Self.entries(["Alice": 10, "Bob": 8, "Carol": 6, "Dave": 1]), at: 50)
        try queue.enqueue(Self.entries(["Alice": 7, "Bob": 2, "Carol": 11, "Dave": 9]), at: 50)
        let state = queue.state(at: 50 + 2 * elapsed)
        func near(_ a: Double, _ b: Double) -> Bool { abs(a - b) < 1e-9 }
        #expect(try row("Carol", state).position == carol && near(row("Carol", state).opacity, carolOpacity))
        #expect(try row("Carol", state).rank == carolRank && row("Carol", state).value == 6 + 5 * elapsed)
        #expect(try row("Dave", state).position == 1 && near(row("Dave", state).opacity, daveOpacity))
        #expect(try row("Dave", state).value == 9, "an entering row shows its new score")
        #expect(try near(row("Alice", state).position, alice) && row("Alice", state).rank == aliceRank)
        #expect(try row("Alice", state).value == 10 - 3 * elapsed)
        #expect(try row("Bob", state).position == 1 && near(row("Bob", state).opacity, bobOpacity))
        #expect(try row("Bob", state).value == 8 && row("Bob", state).rank == 2, "a leaving row keeps its score and rank")
        #expect(state.rows.map(\.name) == ["Carol", "Dave", "Alice", "Bob"], "final order first, then leaving rows")
    }

    /// Boards of eight names (scores 0…9, so ties happen) and their successors, from a fixed seed.
    static let reshuffles: [([LeaderboardEntry], [LeaderboardEntry])] = {
        var seed: UInt64 = 0x5EED
        func next() -> Double {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Double((seed >> 33) % 10)
        }
        let names = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]
        return (0..<200).map { _ in
            (names.map { LeaderboardEntry(name: $0, value: next()) }, names.map { LeaderboardEntry(name: $0, value: next()) })
        }
    }()

    @Test("while rows move no two shown rows overlap, ranks follow the rows down without repeating, and entering rows appear only on their line",
          arguments: [3, 5])
    func neverCrossing(size: Int) throws {
        let board = try leaderboard(size: size, duration: 1, easing: .easeInOut)
        for (before, after) in Self.reshuffles {
            var queue = try AnimationQueue(board, value: before, at: 0)
            let startNames = Set(queue.state(at: 0).rows.map(\.name))
            try queue.enqueue(after, at: 0)
            let end = queue.state(at: 1)
            let scores = Dictionary(uniqueKeysWithValues: after.map { ($0.name, $0.value) })
            for step in 0...100 {
                let shown = queue.state(at: Double(step) / 100).rows.filter { $0.opacity > 0 }
                    .sorted { $0.position < $1.position }
                for (upper, lower) in zip(shown, shown.dropFirst()) {
                    #expect(lower.position - upper.position >= 1 - 1e-9, "\(upper.name) and \(lower.name) overlap")
                    #expect(lower.rank >= upper.rank, "ranks read \(shown.map(\.rank)) down the rows")
                    let tied = scores[upper.name] == scores[lower.name]
                        || before.first { $0.name == upper.name }?.value == before.first { $0.name == lower.name }?.value
                    #expect(tied || lower.rank > upper.rank, "ranks repeat: \(shown.map { "\($0.rank) \($0.name)" })")
                }
                for row in shown where !startNames.contains(row.name) {
                    let line = try #require(end.rows.first { $0.name == row.name }).position
                    #expect(row.position == line, "\(row.name) enters on line \(row.position), not its line \(line)")
                }
            }
        }
    }

    @Test("once the change ends the rows rest on their lines and the leaving row is gone")
    func rest() throws {
        var queue = try AnimationQueue(
            leaderboard(duration: 2), value: Self.entries(["Alice": 10, "Bob": 8, "Carol": 6, "Dave": 1]), at: 50)
        try queue.enqueue(Self.entries(["Alice": 7, "Bob": 2, "Carol": 11, "Dave": 9]), at: 50)
        #expect(queue.restTime == 52)
        let rest = queue.state(at: 52)
        #expect(rest.rows.map(\.name) == ["Carol", "Dave", "Alice"])
        #expect(rest.rows.map(\.position) == [0, 1, 2] && rest.rows.allSatisfy { $0.opacity == 1 })
        #expect(rest.rows.map(\.value) == [11, 9, 7])
    }

    @Test("a row that stays on its line and keeps its score does not move; the easing shapes every other path")
    func easing() throws {
        var queue = try AnimationQueue(
            leaderboard(duration: 1, easing: .easeInOut), value: Self.entries(["Alice": 10, "Bob": 0]), at: 0)
        try queue.enqueue(Self.entries(["Alice": 10, "Bob": 8]), at: 0)
        let quarter = queue.state(at: 0.25)
        #expect(try row("Alice", quarter).position == 0 && row("Alice", quarter).value == 10)
        #expect(try row("Bob", quarter).position == 1)
        #expect(try row("Bob", quarter).value == 0.5, "8 × ½(2 × 0.25)³ at a quarter of the time")
    }

    @Test("a score's text counts as a counter's: toward where it started, never past the final score", arguments: [
        (8.0, 9.0, 0.75, "8"), (8, 9, 1, "9"), (9, 8, 0.25, "9"), (9, 8, 1, "8"), (0, 100, 0.5, "50"),
    ])
    func countingText(from: Double, to: Double, elapsed: Double, text: String) throws {
        var queue = try AnimationQueue(leaderboard(), value: Self.entries(["Alice": from]), at: 0)
        try queue.enqueue(Self.entries(["Alice": to]), at: 0)
        #expect(try row("Alice", queue.state(at: elapsed)).text == text)
    }

    @Test("a retarget moves on from where the rows are, without a jump")
    func retarget() throws {
        var queue = try AnimationQueue(
            leaderboard(duration: 2), value: Self.entries(["Alice": 10, "Bob": 0]), at: 0, policy: .retarget)
        try queue.enqueue(Self.entries(["Alice": 10, "Bob": 20]), at: 0)
        let before = queue.state(at: 1)
        try queue.enqueue(Self.entries(["Alice": 30, "Bob": 20]), at: 1)
        let after = queue.state(at: 1)
        #expect(try row("Bob", after).position == row("Bob", before).position)
        #expect(try row("Bob", after).value == 10)
        #expect(queue.restTime == 3)
        #expect(try row("Alice", queue.state(at: 3)).position == 0)
    }
}
