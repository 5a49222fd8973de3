/// One leaderboard change, in up to three phases over u = easing(t / duration) so that rows never cross:
///
/// 1. **out**: rows that leave the top, and rows that must jump over others to reach their new line, fade out where
///    they stand;
/// 2. **slide**: the other rows (the most rows whose order does not change, chosen so that climbers rather than
///    fallers jump) slide to their new lines — they keep their order and stay at least a line apart, so no two
///    overlap;
/// 3. **in**: rows that enter the top, and the jumpers, fade in on their new lines.
///
/// Phases that have nothing to do take no time; the others share the duration equally. A score counts over the whole
/// change (p₀ + (p₁ − p₀)·u), as a counter's text does: rounded toward where it started, never past the final score.
/// The rank written in a row is its old rank until the rows are half-way, then its new one (all sliding rows switch
/// together; a fading row shows the rank of the line it fades on), so the ranks shown are always all old or all new:
/// read down the rows they never repeat (except for ties) and they move with their rows.
public struct LeaderboardAnimation: TileAnimation {
    public typealias State = LeaderboardState

    /// How a row gets from its start to its end.
    enum Move: Sendable {
        /// Slides from line to line in the slide phase.
        case slide
        /// Fades out on its start line in the out phase, then in on its end line in the in phase.
        case jump
        /// Fades in on its end line in the in phase.
        case enter
        /// Fades out on its start line in the out phase.
        case leave
    }

    /// One row's path.
    struct Path: Sendable {
        var start: LeaderboardRow
        var end: LeaderboardRow
        var move: Move
    }

    /// The three phases as ranges of u.
    struct Phases: Sendable {
        var out: ClosedRange<Double>?
        var slide: ClosedRange<Double>?
        var into: ClosedRange<Double>?

        init(out: Bool, slide: Bool, into: Bool) {
            let count = [out, slide, into].filter { $0 }.count
            let step = count == 0 ? 1 : 1 / Double(count)
            var from = 0.0
            func next(_ used: Bool) -> ClosedRange<Double>? {
                guard used else { return nil }
                defer { from += step }
                return from...(from + step)
            }
            self.out = next(out)
            self.slide = next(slide)
            self.into = next(into)
        }

        /// How far through `phase` the change is at `u`, 0…1 (1 for a phase that does not exist).
        static func progress(_ phase: ClosedRange<Double>?, _ u: Double) -> Double {
            guard let phase, phase.upperBound > phase.lowerBound else { return 1 }
            return min(1, max(0, (u - phase.lowerBound) / (phase.upperBound - phase.lowerBound)))
        }
    }

    let paths: [Path]
    let phases: Phases
    let final: LeaderboardState
    public let duration: Double
    let easing: CounterEasing
    let format: NumberFormat

    init(
        from start: LeaderboardState, to end: LeaderboardState, size: Int, duration: Double, easing: CounterEasing,
        format: NumberFormat
    ) {
        var starts: [String: LeaderboardRow] = [:]
        // A row that is not shown at the start (opacity 0, half-way through a jump) enters rather than slides, its
        // score counting on from where it was.
        var hidden: [String: LeaderboardRow] = [:]
        for row in start.rows { if row.opacity > 0 { starts[row.name] = row } else { hidden[row.name] = row } }
        let staying = end.rows.filter { starts[$0.name] != nil }
        let sliders = Self.sliders(staying.map { (from: starts[$0.name]!.position, to: $0.position) })
        var paths: [Path] = []
        var slidingIndex = 0
        for row in end.rows {
            if let from = starts.removeValue(forKey: row.name) {
                let move: Move = sliders.contains(slidingIndex) ? .slide : .jump
                slidingIndex += 1
                paths.append(Path(start: from, end: row, move: move))
            } else {
                var from = row
                from.opacity = 0
                if let was = hidden[row.name] { from.value = was.value }
                paths.append(Path(start: from, end: row, move: .enter))
            }
        }
        for row in start.rows where starts[row.name] != nil {
            var gone = row
            gone.opacity = 0
            paths.append(Path(start: row, end: gone, move: .leave))
        }
        self.paths = paths
        phases = Phases(
            out: paths.contains { $0.move == .leave || $0.move == .jump },
            slide: paths.contains { $0.move == .slide && $0.start.position != $0.end.position },
            into: paths.contains { $0.move == .enter || $0.move == .jump })
        final = end
        self.duration = max(0, duration)
        self.easing = easing
        self.format = format
    }

    /// The indices (into `moves`, in end order) of the rows that slide: the most rows whose start lines rise with
    /// their end lines (a longest increasing subsequence), and among as many, those that climb least, so a row that
    /// shoots up jumps while the rows it passes make room.
    static func sliders(_ moves: [(from: Double, to: Double)]) -> Set<Int> {
        guard !moves.isEmpty else { return [] }
        // best[i]: (rows, climbing) of the best chain ending at i; previous[i]: the row before i in it.
        var best: [(rows: Int, climbing: Double)] = []
        var previous: [Int?] = []
        for i in moves.indices {
            let climb = max(0, moves[i].from - moves[i].to)
            var chosen: (rows: Int, climbing: Double) = (1, climb)
            var before: Int?
            for j in 0..<i where moves[j].from < moves[i].from {
                let candidate = (rows: best[j].rows + 1, climbing: best[j].climbing + climb)
                if candidate.rows > chosen.rows || (candidate.rows == chosen.rows && candidate.climbing < chosen.climbing) {
                    chosen = candidate
                    before = j
                }
            }
            best.append(chosen)
            previous.append(before)
        }
        var last = 0
        for i in moves.indices
        where best[i].rows > best[last].rows
            || (best[i].rows == best[last].rows && best[i].climbing < best[last].climbing)
        {
            last = i
        }
        var chain: Set<Int> = []
        var index: Int? = last
        while let current = index {
            chain.insert(current)
            index = previous[current]
        }
        return chain
    }

    public func state(at elapsed: Double) -> LeaderboardState {
        guard elapsed < duration else { return final }
        let u = easing(elapsed / duration)
        let out = Phases.progress(phases.out, u)
        let slide = Phases.progress(phases.slide, u)
        let into = Phases.progress(phases.into, u)
        let rows = paths.map { path in
            let value = path.start.value + (path.end.value - path.start.value) * u
            var row = LeaderboardRow(
                name: path.end.name, value: value, text: text(value, from: path.start.value, to: path.end),
                rank: path.start.rank, position: path.start.position, opacity: path.start.opacity)
            switch path.move {
            case .slide:
                row.position = path.start.position + (path.end.position - path.start.position) * slide
                row.opacity = path.start.opacity + (path.end.opacity - path.start.opacity) * u
                // Every sliding row switches at the same moment, half-way, so the ranks shown are all old or all new.
                row.rank = (phases.slide == nil ? u >= 0.5 : slide >= 0.5) ? path.end.rank : path.start.rank
            case .leave:
                row.opacity = path.start.opacity * (1 - out)
            case .jump where out < 1 || into == 0:
                row.opacity = path.start.opacity * (1 - out)
            case .jump, .enter:
                row.position = path.end.position
                row.rank = path.end.rank
                row.opacity = path.end.opacity * into
            }
            return row
        }
        return LeaderboardState(rows: rows, entries: final.entries)
    }

    /// The text of a score counting from `from` to `end`'s, `value` on the way.
    private func text(_ value: Double, from: Double, to end: LeaderboardRow) -> String {
        let to = end.value
        if from == to { return end.text }
        let upward = to >= from
        if format.compact {
            return format.compactString(upward ? min(value, to) : max(value, to), rounding: upward ? .down : .up)
        }
        let counted = format.countingScaled(value, upward: upward)
        let target = format.restingScaled(to)
        return format.string(scaled: upward ? min(counted, target) : max(counted, target))
    }
}
