package import RollboardCore

/// Every id producers may write, derived from the dashboards: an id is known when some tile of some dashboard
/// shows it (its `metric`, which defaults to the tile id). Each id has one kind, and the tiles that show it
/// decide which values and commands are acceptable.
public struct MetricCatalog: Sendable, Equatable {
    /// What a known id is.
    public enum Kind: String, Sendable, Equatable {
        /// A number shown by odometer and/or counter tiles; written with `POST /api/v1/metrics`.
        case metric
        /// A wheel position; written with `POST /api/v1/wheels/{id}`.
        case wheel
        /// A carousel; commanded with `POST /api/v1/carousels/{id}`, its slides set with
        /// `POST /api/v1/carousels/{id}/slides`.
        case carousel
        /// A text tile's message; written with `POST /api/v1/texts/{id}`.
        case text
        /// A leaderboard's board; written with `POST /api/v1/leaderboards/{id}`.
        case leaderboard
    }

    /// A tile showing an id, with its dashboard.
    public struct TileReference: Sendable, Equatable {
        public var dashboard: String
        public var tile: TileConfiguration
    }

    /// The tiles showing each id, in configuration order.
    public private(set) var tiles: [String: [TileReference]] = [:]

    /// Builds the catalog; `conflict` is called for a tile whose id is already another kind.
    init(
        dashboards: [DashboardConfiguration],
        conflict: (DashboardConfiguration, TileConfiguration, TileReference) -> Void
    ) {
        for dashboard in dashboards {
            for tile in dashboard.tiles {
                guard Self.kind(of: tile.type) != nil else { continue }  // a clock: nothing for producers to write
                if let first = tiles[tile.metric]?.first, Self.kind(of: first.tile.type) != Self.kind(of: tile.type) {
                    conflict(dashboard, tile, first)
                    continue
                }
                tiles[tile.metric, default: []].append(TileReference(dashboard: dashboard.id, tile: tile))
            }
        }
    }

    static func kind(of type: TileType) -> Kind? {
        switch type {
        case .odometer, .counter, .gauge, .chart: .metric
        case .wheel: .wheel
        case .carousel: .carousel
        case .text: .text
        case .leaderboard: .leaderboard
        case .clock: nil
        }
    }

    /// The kind of `id`, or `nil` if no tile shows it.
    public func kind(of id: String) -> Kind? {
        tiles[id]?.first.flatMap { Self.kind(of: $0.tile.type) }
    }

    /// Every known id of `kind`, sorted.
    public func ids(of kind: Kind) -> [String] {
        tiles.keys.filter { self.kind(of: $0) == kind }.sorted()
    }

    /// Why `value` cannot be shown by every tile showing metric `id`, or `nil` when it can; each tile is asked by
    /// the rule its live animation applies, so an accepted value is never refused by a screen.
    /// `literal` is the value as the producer wrote it, quoted in the message (default: `value` formatted).
    public func problem(showing value: Double, as id: String, literal: String? = nil) -> String? {
        let text = literal ?? formatNumber(value)
        // A tile with a window shows the window's number, not the posted value: it is not asked.
        for reference in tiles[id] ?? [] where reference.tile.window == nil {
            let place = "tile \"\(reference.tile.id)\" of dashboard \"\(reference.dashboard)\""
            switch reference.tile.options {
            case .odometer(let options) where !options.canShow(value):
                let columns = options.columns.maximum
                return "\(text) is too wide for \(place): \(columns) columns with "
                    + "\(options.decimals) decimals show at most ±\(options.largestValueText)"
            case .counter(let options):
                if let problem = options.problem(showing: value) { return "\(text) is too large for \(place): \(problem)" }
            case .gauge(let options):
                if let problem = options.number.problem(showing: value) {
                    return "\(text) is too large for \(place): \(problem)"
                }
            case .leaderboard(let options):
                if let problem = options.number.problem(showing: value) {
                    return "\(text) is too large for \(place): \(problem)"
                }
            case .chart where abs(value) > 1e15:
                return "\(text) is too large for \(place): a chart shows values within ±1e15"
            default:
                continue
            }
        }
        return nil
    }

    /// The number of positions every wheel showing `id` has (the smallest `contents` count), or `nil`.
    public func wheelPositions(_ id: String) -> Int? {
        tiles[id]?.compactMap { reference -> Int? in
            guard case .wheel(let options) = reference.tile.options else { return nil }
            return options.contents.count
        }.min()
    }

    /// The labels of the first wheel showing `id` (the one whose labels a `label` target names), or `nil`.
    public func wheelContents(_ id: String) -> [String]? {
        tiles[id]?.lazy.compactMap { reference -> [String]? in
            guard case .wheel(let options) = reference.tile.options else { return nil }
            return options.contents
        }.first
    }

    /// The number of slides every carousel showing `id` has (the smallest), or `nil`.
    public func carouselPages(_ id: String) -> Int? {
        tiles[id]?.compactMap { reference -> Int? in
            guard case .carousel(let options) = reference.tile.options else { return nil }
            return options.slides.count
        }.min()
    }
}
