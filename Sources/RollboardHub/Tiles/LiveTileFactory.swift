import Logging
package import RollboardAccess
import RollboardAnimation
package import RollboardConfig
package import RollboardCore
package import RollboardStore

/// Builds each tile's live animation from its configuration and the store's current values.
struct LiveTileFactory {
    let configuration: RollboardConfiguration
    let store: any ChangeLog
    let logger: Logger
    /// Wall-clock seconds since 1970 at hub time 0, read back to back with the hub's clock: the wall time at hub time
    /// t is t + wallOffset (clocks and carousels turn on the wall clock's seconds, so every screen of every node turns
    /// together).
    let wallOffset: Double

    /// A tile at rest on its metric's current value (or with no value yet, or on its wheel's current target, or showing
    /// the slides or message a producer last set) at `time`.
    ///
    /// A stored value the tile cannot show (the configuration changed since it was accepted, say a tile now has
    /// fewer columns) never stops the server from starting: the tile starts at zero, the problem is logged, and the
    /// next value the tile can show replaces it.
    func makeTile(_ tile: TileConfiguration, of dashboard: DashboardConfiguration? = nil, at time: Double) throws
        -> any LiveTile
    {
        let backlog = configuration.backlog(tile)
        let maxLag = configuration.maxLag(tile)
        let policy = tile.queue ?? .fifo
        switch tile.options {
        case .odometer(let options):
            let odometer = try options.odometer().configuration
            return try number(
                Odometer.self, tile, of: dashboard, configuration: odometer, canShow: options.canShow, trend: options.trend,
                backlog: backlog, maxLag: maxLag, policy: policy, at: time
            ) { try options.deltaFormat() }
        case .counter(let options):
            let counter = try options.counter().configuration
            return try number(
                Counter.self, tile, of: dashboard, configuration: counter, canShow: options.canShow, trend: options.trend,
                backlog: backlog, maxLag: maxLag, policy: policy, at: time
            ) { try counter.format.deltaFormat(groupsOfThree: !options.effectiveGroupSeparator.isEmpty) }
        case .gauge(let options):
            let gauge = try options.gauge(goal: tile.kpi.goal).configuration
            return try number(
                Gauge.self, tile, of: dashboard, configuration: gauge, canShow: options.canShow, trend: nil,
                backlog: backlog, maxLag: maxLag, policy: policy, at: time
            ) { try gauge.counter.format.deltaFormat(groupsOfThree: !options.number.effectiveGroupSeparator.isEmpty) }
        case .wheel(let options):
            let wheel = try Wheel(contents: options.contents, duration: options.duration)
            let position: Double? =
                switch store.wheel(tile.metric)?.target {
                case .progress(let progress): try wheel.position(forProgress: progress)
                case .index(let index): try wheel.position(forIndex: index)
                case nil: nil
                }
            return try WheelTile(
                tileID: tile.id, wheel: wheel, position: position, backlog: backlog, maxLag: maxLag, policy: policy,
                at: time)
        case .carousel(let options):
            let carousel = CarouselConfiguration(slides: options.slides.count, interval: options.interval)
            let slides = store.slides(tile.metric)?.slides
            // The rotation is read off the wall clock: it began at the last whole turn since 1970, so every node
            // shows the same slide at the same moment, however long each has been running.
            let turn = options.interval * Double(slides?.count ?? options.slides.count)
            let intoTurn = (time + wallOffset).truncatingRemainder(dividingBy: turn)
            return try CarouselTile(
                tileID: tile.id, configuration: carousel, slides: slides, wallOffset: wallOffset, at: time - intoTurn)
        case .clock(let options):
            let face = ClockFace(
                timeZone: dashboard?.timeZone?.timeZone ?? DashboardTimeZone.server,
                locale: options.locale ?? dashboard?.locale ?? ClockOptions.defaultLocale,
                seconds: options.seconds, date: options.date)
            return ClockTile(tileID: tile.id, face: face, wallOffset: wallOffset)
        case .leaderboard(let options):
            return try LeaderboardTile(
                tileID: tile.id, leaderboard: try options.leaderboard(), entries: store.leaderboard(tile.metric)?.entries,
                backlog: backlog, maxLag: maxLag, policy: policy, at: time)
        case .chart(let options):
            let snapshot = store.snapshot
            let indicator = try tile.kpi.isEmpty ? nil : KPIIndicator(
                options: tile.kpi, deltaFormat: NumberFormat(format: "%.\(options.decimals)f", groupsOfThree: true))
            return try ChartTile(
                tileID: tile.id, chart: Chart(configuration: options.configuration(goal: tile.kpi.goal)),
                options: options,
                seed: ChartTile.Seed(series: snapshot.series(tile.metric), current: snapshot.current(tile.metric), options: options),
                wallOffset: wallOffset, indicator: indicator, backlog: backlog, maxLag: maxLag, policy: policy, at: time)
        case .text(let options):
            let stored = store.text(tile.metric)
            return TextTile(tileID: tile.id, text: stored?.text ?? options.text, color: stored?.color)
        }
    }

    /// A number tile (odometer, counter or gauge) on `configuration`, at rest on the metric's stored value when the
    /// tile can show it, with the tile's KPI indicator (its delta written in `deltaFormat`) and sparkline, if any.
    private func number<Animator: NumberTileAnimator>(
        _ animator: Animator.Type, _ tile: TileConfiguration, of dashboard: DashboardConfiguration?, configuration: Animator.Configuration,
        canShow: (Double) -> Bool, trend trendOptions: TrendOptions?, backlog: Int, maxLag: Double?,
        policy: QueuePolicy, at time: Double, deltaFormat: () throws -> NumberFormat
    ) throws -> any LiveTile {
        let value = (store.current(tile.metric)?.value).map { showable($0, tile: tile, canShow: canShow) }
        let history = store.history(tile.metric)
        let previous = history.count >= 2 ? history[history.count - 2].value : nil
        let indicator = tile.hasIndicator ? try KPIIndicator(options: tile.kpi, deltaFormat: deltaFormat()) : nil
        let trend = trend(trendOptions, tile)
        return try number(tile, of: dashboard, indicator: indicator, value: value, at: time) { indicator, value in
            try NumberTile<Animator>(
                tileID: tile.id, configuration: configuration, value: value, backlog: backlog, maxLag: maxLag,
                policy: policy, indicator: indicator, previous: previous, trend: trend, at: time)
        }
    }

    /// The sparkline of `tile`'s metric, when it has a `trend`.
    private func trend(_ options: TrendOptions?, _ tile: TileConfiguration) -> TrendLine? {
        options.map { options in
            let snapshot = store.snapshot
            return TrendLine(
                options: options, series: snapshot.series(tile.metric), current: snapshot.current(tile.metric),
                wallOffset: wallOffset)
        }
    }

    /// `value` when the tile can show it; otherwise zero, with the reason logged.
    private func showable(_ value: Double, tile: TileConfiguration, canShow: (Double) -> Bool) -> Double {
        if canShow(value) { return value }
        logger.error(
            "stored value cannot be shown by its tile; the tile starts at 0 until the next value",
            metadata: ["tile": "\(tile.id)", "metric": "\(tile.metric)", "value": "\(value)"])
        return 0
    }
}
