public import Dispatch
public import Logging
public import RollboardAnimation
public import RollboardConfig
public import RollboardCore
public import RollboardHub
public import RollboardMetrics
public import RollboardRedisLog
public import RollboardSources
public import RollboardStore

/// Feeds a dashboard with plausible synthetic values so a newcomer sees every tile move (`serve --demo`).
public final class DemoFeeder: @unchecked Sendable {  // Sendable: `generator` and `values` are touched only on `queue`.
    private let dashboard: DashboardConfiguration
    private let store: any ChangeLog
    private let logger: Logger
    private let leaderboardLimit: Int
    private let queue = DispatchQueue(label: "rollboard.demo")
    /// The system's monotonic clock (the demo is not a service of the node) and the one timer on it.
    private let clock = NodeClock.system.monotonic
    private let timer: any ClockTimer
    private let every: Double
    private var generator = SystemRandomNumberGenerator()
    private var values: [String: Double] = [:]
    private var round = 0

    /// - Parameters:
    ///   - leaderboardLimit: the most entries a board may hold (`limits.maxLeaderboardEntries`).
    ///   - every: seconds between two rounds of new values.
    public init(
        dashboard: DashboardConfiguration, store: any ChangeLog, leaderboardLimit: Int, logger: Logger,
        every seconds: Double = 3
    ) {
        self.dashboard = dashboard
        self.store = store
        self.leaderboardLimit = leaderboardLimit
        self.logger = logger
        self.every = seconds
        timer = clock.makeTimer(queue)
        timer.activate { [weak self] in
            guard let self else { return }
            feed()
            timer.arm(at: clock.now() + every)
        }
    }

    /// Starts feeding, the first round a second from now.
    public func start() {
        timer.arm(at: clock.now() + 1)
    }

    /// Stops feeding.
    public func stop() {
        timer.cancel()
    }

    private func feed() {
        dispatchPrecondition(condition: .onQueue(queue))
        round += 1
        var updates: [MetricUpdate] = []
        for tile in dashboard.tiles {
            if tile.window?.aggregate == .sum {
                // A running total: one to three more each round, posted as increments.
                let amount = Double(Int.random(in: 1...3, using: &generator))
                updates.append(MetricUpdate(id: tile.metric, value: 0, increment: amount))
                continue
            }
            switch tile.options {
            case .odometer(let options):
                let value = nextValue(for: tile.metric, current: store.current(tile.metric)?.value,
                                      decimals: options.decimals, start: [48_213.07, 1_287, 21.4],
                                      canShow: options.canShow)
                if let value { updates.append(MetricUpdate(id: tile.metric, value: value)) }
            case .counter(let options):
                let decimals = CounterOptions.decimals(ofFormat: options.format) ?? 0
                let value = nextValue(for: tile.metric, current: store.current(tile.metric)?.value,
                                      decimals: decimals, start: decimals > 0 ? [3.25] : [312],
                                      canShow: options.canShow)
                if let value { updates.append(MetricUpdate(id: tile.metric, value: value)) }
            case .gauge(let options):
                let value = nextGauge(for: tile.metric, current: store.current(tile.metric)?.value, options: options,
                                      goal: tile.kpi.goal, warning: tile.kpi.warning)
                updates.append(MetricUpdate(id: tile.metric, value: value))
            case .wheel(let options):
                if round % 3 == 0 {
                    let index = Int.random(in: 0..<options.contents.count, using: &generator)
                    store.setWheel(tile.metric, target: .index(index)) { _ in }
                }
            case .leaderboard:
                feedLeaderboard(tile.metric)
            case .chart:
                updates.append(MetricUpdate(id: tile.metric, value: nextChartValue(for: tile.metric)))
            case .carousel, .text, .clock:
                break
            }
        }
        var seen = Set<String>()
        updates = updates.filter { seen.insert($0.id).inserted }
        guard !updates.isEmpty else { return }
        let increments = updates.filter { $0.increment != nil }
        updates.removeAll { $0.increment != nil }
        if !increments.isEmpty {
            store.commitMetrics(MetricCommitRequest(metrics: increments.map(\.stored))) { [logger] result in
                if case .failure(let error) = result { logger.warning("demo increments not stored", metadata: ["error": "\(error)"]) }
            }
        }
        guard !updates.isEmpty else { return }
        store.append(updates) { [logger] result in
            if case .failure(let error) = result { logger.warning("demo values not stored", metadata: ["error": "\(error)"]) }
        }
    }

    /// The next value of a number tile: a total that only climbs (revenue, orders, page views) grows a little each
    /// round; any other level (visitors online, a temperature, a rate) takes a bounded mean-reverting walk around
    /// where it starts, so it looks alive for hours and never leaves a plausible band (no 98.6 °C server room).
    /// Rounded to `decimals`, kept within what the tile can show.
    private func nextValue(
        for id: String, current: Double?, decimals: Int, start: [Double], canShow: (Double) -> Bool
    ) -> Double? {
        let first = startingValue(start, decimals: decimals, canShow: canShow)
        let base = values[id] ?? current ?? first
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let walk = DemoWalk.of(id, start: first)
        var next = (walk.next(from: base, using: &generator) * scale).rounded() / scale
        if walk.climbing, decimals == 0, next == base { next += 1 }
        guard canShow(next) else {
            values[id] = first
            return first
        }
        values[id] = next
        return next
    }

    /// Sales by person: a first board, then every round one or two people sell one to three more (increments, so the
    /// rows climb past each other).
    private func feedLeaderboard(_ id: String) {
        let names = ["Ana", "Ben", "Chloé", "Dev", "Emma", "Farid", "Greta", "Hiro"]
        let edit: LeaderboardEdit
        if store.leaderboard(id) == nil {
            edit = .replace(names.enumerated().map { LeaderboardEntry(name: $1, value: Double(30 - 3 * $0)) })
        } else {
            let count = Int.random(in: 1...2, using: &generator)
            edit = .increment(names.shuffled(using: &generator).prefix(count).map {
                LeaderboardEntry(name: $0, value: Double(Int.random(in: 1...3, using: &generator)))
            })
        }
        store.commitLeaderboard(LeaderboardCommitRequest(id: id, edit: edit, limit: leaderboardLimit)) {
            [logger] result in
            if case .failure(let error) = result { logger.warning("demo board not stored", metadata: ["error": "\(error)"]) }
        }
    }

    /// A bounded mean-reverting walk over the gauge's dial: around the middle of the dial (or between its goal and
    /// its warning, where both are given), steps of up to 3 % of the dial, whole numbers, never closer than 5 % to
    /// its ends.
    private func nextGauge(
        for id: String, current: Double?, options: GaugeOptions, goal: Double?, warning: Double?
    ) -> Double {
        let low = options.min
        let high = options.end(goal: goal)
        let span = high - low
        var mean = (low + high) / 2
        if let goal, let warning, goal > low, goal < high, warning > low, warning < high {
            mean = (goal + warning) / 2
        }
        let walk = DemoWalk(mean: mean, spread: span * 0.03, low: low + span * 0.05, high: high - span * 0.05)
        let base = values[id] ?? current ?? mean
        let next = walk.next(from: base, using: &generator).rounded()
        values[id] = next
        return next
    }

    /// A level wandering around 120 (requests per second, say): a bounded mean-reverting walk between 80 and 140, one
    /// decimal.
    private func nextChartValue(for id: String) -> Double {
        let base = values[id] ?? store.current(id)?.value ?? 120
        let walk = DemoWalk(mean: 120, spread: 4, low: 80, high: 140)
        let next = (walk.next(from: base, using: &generator) * 10).rounded() / 10
        values[id] = next
        return next
    }

    private func startingValue(_ candidates: [Double], decimals: Int, canShow: (Double) -> Bool) -> Double {
        for candidate in candidates where canShow(candidate) {
            var scale = 1.0
            for _ in 0..<decimals { scale *= 10 }
            return (candidate * scale).rounded() / scale
        }
        return 0
    }
}
