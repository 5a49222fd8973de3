import Logging
package import RollboardConfig
package import RollboardCore
package import RollboardStore

extension LiveTileFactory {
    /// The number tile `make` builds (given its indicator and value), or, for a tile with a `window`, a
    /// ``WindowedTile`` around one at rest on the window's number (read from the metric's series, in the dashboard's
    /// time zone), the indicator then being the windowed tile's.
    func number<Animator: NumberTileAnimator>(
        _ tile: TileConfiguration, of dashboard: DashboardConfiguration?, indicator: KPIIndicator?, value: Double?,
        at time: Double, make: (KPIIndicator?, Double?) throws -> NumberTile<Animator>
    ) throws -> any LiveTile {
        guard let options = tile.window else { return try make(indicator, value) }
        let window = MetricWindow(
            span: options.span, aggregate: options.aggregate,
            timeZone: dashboard?.timeZone?.timeZone ?? DashboardTimeZone.server)
        let store = store
        let metric = tile.metric
        let windowed = WindowedValue(
            window: window, compare: options.compare, limits: store.snapshot.seriesLimits,
            series: { store.snapshot.series(metric) }, at: time + wallOffset)
        let inner: NumberTile<Animator>
        do {
            inner = try make(nil, windowed.value)
        } catch {
            logger.error(
                "the window's number cannot be shown by its tile; the tile starts without a value",
                metadata: ["tile": "\(tile.id)", "window": "\(options.name)", "error": "\(error)"])
            inner = try make(nil, nil)
        }
        return WindowedTile(inner: inner, windowed: windowed, indicator: indicator, wallOffset: wallOffset, at: time)
    }
}
