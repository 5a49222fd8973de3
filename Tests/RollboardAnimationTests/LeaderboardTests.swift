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

    // Alice 10 (line 0), Bob 8 (1), Carol 6 (2), Dave 1 (below); then Carol 11, Dave 9, Alice 7, Bob 2:
    // Carol climbs 2 → 0, Dave enters at 1, Alice slides 0 → 2, Bob leaves 1 → 3 (below the last of 3 lines).
    @Test("with u = easing(t / d), each row goes p₀ + (p₁ − p₀)·u, its score v₀ + (v₁ − v₀)·u, its opacity likewise",
          arguments: [
              // elapsed, Carol (position, score), Dave (position, opacity), Alice position, Bob (position, opacity)
              (0.0, 2.0, 6.0, 3.0, 0.0, 0.0, 1.0, 1.0),
              (0.25, 1.5, 7.25, 2.5, 0.25, 0.5, 1.5, 0.75),
              (0.5, 1.0, 8.5, 2.0, 0.5, 1.0, 2.0, 0.5),
              (0.75, 0.5, 9.75, 1.5, 0.75, 1.5, 2.5, 0.25),
          ])
    func motion(
        elapsed: Double, carol: Double, carolScore: Double, dave: Double, daveOpacity: Double, alice: Double,
        bob: Double, bobOpacity: Double
    ) throws {
        let board = try leaderboard(duration: 2)
        var queue = try AnimationQueue(board, value: Self.entries(["Alice": 10, "Bob": 8, "Carol": 6, "Dave": 1]), at: 50)
        try queue.enqueue(Self.entries(["Alice": 7, "Bob": 2, "Carol": 11, "Dave": 9]), at: 50)
        let state = queue.state(at: 50 + 2 * elapsed)
        #expect(try row("Carol", state).position == carol && row("Carol", state).value == carolScore)
        #expect(try row("Carol", state).rank == 1)
        #expect(try row("Dave", state).position == dave && row("Dave", state).opacity == daveOpacity)
        #expect(try row("Dave", state).value == 9, "an entering row shows its new score")
        #expect(try row("Alice", state).position == alice && row("Alice", state).value == 10 - 3 * elapsed)
        #expect(try row("Bob", state).position == bob && row("Bob", state).opacity == bobOpacity)
        #expect(try row("Bob", state).value == 8, "a leaving row keeps the score it had")
        #expect(state.rows.map(\.name) == ["Carol", "Dave", "Alice", "Bob"], "final order first, then leaving rows")
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
