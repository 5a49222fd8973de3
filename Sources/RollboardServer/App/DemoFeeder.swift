import Dispatch
import RollboardAnimation
public import Logging

/// Feeds a dashboard with plausible synthetic values so a newcomer sees every tile move (`serve --demo`).
public final class DemoFeeder: @unchecked Sendable {  // Sendable: `generator` and `values` are touched only on `queue`.
    private let dashboard: DashboardConfiguration
    private let store: any ChangeLog
    private let logger: Logger
    private let leaderboardLimit: Int
    private let queue = DispatchQueue(label: "rollboard.demo")
    private let timer: any DispatchSourceTimer
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
        timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + 1, repeating: seconds, leeway: .milliseconds(50))
        timer.setEventHandler { [weak self] in self?.feed() }
    }

    /// Starts feeding.
    public func start() {
        timer.activate()
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
                                      goal: tile.kpi.goal)
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

    /// A random walk that mostly climbs, rounded to `decimals`, kept within what the tile can show.
    private func nextValue(
        for id: String, current: Double?, decimals: Int, start: [Double], canShow: (Double) -> Bool
    ) -> Double? {
        let base = values[id] ?? current ?? startingValue(start, decimals: decimals, canShow: canShow)
        let magnitude = max(abs(base), 10)
        let step = magnitude * Double.random(in: -0.02...0.05, using: &generator)
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        var next = ((base + step) * scale).rounded() / scale
        if decimals == 0, next == base { next += 1 }
        guard canShow(next) else {
            let reset = startingValue(start, decimals: decimals, canShow: canShow)
            values[id] = reset
            return reset
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

    /// A walk over the gauge's dial: steps of up to a tenth of the dial either way, whole numbers, kept within it.
    private func nextGauge(for id: String, current: Double?, options: GaugeOptions, goal: Double?) -> Double {
        let low = options.min
        let high = options.end(goal: goal)
        let base = values[id] ?? current ?? (low + high) / 2
        let step = (high - low) * Double.random(in: -0.1...0.1, using: &generator)
        let next = min(max((base + step).rounded(), low), high)
        values[id] = next
        return next
    }

    /// A level wandering around 120 (requests per second, say): steps of up to 8 % either way, one decimal, never
    /// below 0.
    private func nextChartValue(for id: String) -> Double {
        let base = values[id] ?? store.current(id)?.value ?? 120
        let next = max(((base * (1 + Double.random(in: -0.08...0.08, using: &generator)) + 4 * (120 - base) / 120) * 10)
            .rounded() / 10, 0)
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
