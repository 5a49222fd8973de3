import RollboardAnimation

/// Builds each tile's live animation from its configuration and the store's current values.
struct LiveTileFactory {
    let configuration: RollboardConfiguration
    let store: MetricStore

    /// A tile at rest on its metric's current value (or zero, or its wheel's current target) at `time`.
    func makeTile(_ tile: TileConfiguration, at time: Double) throws -> any LiveTile {
        let backlog = configuration.backlog(tile)
        let value = store.current(tile.metric)?.value ?? 0
        switch tile.options {
        case .odometer(let options):
            let columns: OdometerConfiguration.Columns =
                switch options.columns {
                case .fixed(let count): .fixed(count)
                case .growing(let maximum): .growing(maximum: maximum)
                }
            let odometer = OdometerConfiguration(columns: columns, decimals: options.decimals)
            return try OdometerTile(tileID: tile.id, configuration: odometer, value: value, backlog: backlog, at: time)
        case .counter(let options):
            let format = try NumberFormat(
                format: options.format, grouping: options.grouping, prefix: options.prefix, suffix: options.suffix)
            let easing = CounterEasing(rawValue: options.easing.rawValue) ?? .easeInOut
            let counter = CounterConfiguration(duration: options.duration, easing: easing, format: format)
            return try CounterTile(tileID: tile.id, configuration: counter, value: value, backlog: backlog, at: time)
        case .wheel(let options):
            let wheel = try Wheel(contents: options.contents, duration: options.duration)
            let position: Double =
                switch store.wheel(tile.metric)?.target {
                case .progress(let progress): try wheel.position(forProgress: progress)
                case .index(let index): try wheel.position(forIndex: index)
                case nil: 0
                }
            return try WheelTile(tileID: tile.id, wheel: wheel, position: position, backlog: backlog, at: time)
        case .carousel(let options):
            let carousel = CarouselConfiguration(slides: options.slides.count, interval: options.interval)
            return try CarouselTile(tileID: tile.id, configuration: carousel, at: time)
        }
    }
}
