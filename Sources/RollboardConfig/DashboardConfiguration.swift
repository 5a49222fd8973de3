
/// One dashboard from `config/dashboards/*.yaml`: a grid of tiles.
public struct DashboardConfiguration: Sendable, Equatable {
    /// The id used in URLs (`/d/ID`, `?dashboard=ID`).
    public var id: String
    public var title: String
    public var grid: GridSize
    /// The tiles, in file order.
    public var tiles: [TileConfiguration]
    /// The file the dashboard came from, as named in error messages.
    public var file: String
    /// Who may watch it; `nil` means the server's `dashboardAccess`.
    public var access: DashboardAccess?
    /// How its tiles move on every screen: `reduced` makes every screen calm (only final values, no motion).
    public var motion: Motion = .full
    /// The language of its texts (`de-DE`): the page's `lang`, by which text tiles hyphenate and screen readers read;
    /// `nil` lets the page take the locale its tiles name.
    public var locale: String?
    /// The time zone its clocks tell the time in; `nil` is the server's (``DashboardTimeZone/server``).
    public var timeZone: DashboardTimeZone?

    /// How a dashboard's tiles move.
    public enum Motion: String, Sendable, Equatable {
        /// Rolling, counting, sliding: the animations.
        case full
        /// Calm: a change jumps to its final value; carousels wait for the viewer.
        case reduced
    }

    public init(
        id: String, title: String, grid: GridSize, tiles: [TileConfiguration], file: String,
        access: DashboardAccess? = nil, motion: Motion = .full, locale: String? = nil
    ) {
        self.motion = motion
        self.locale = locale
        self.id = id
        self.title = title
        self.grid = grid
        self.tiles = tiles
        self.file = file
        self.access = access
    }

    /// The tile with the given id.
    public func tile(_ id: String) -> TileConfiguration? {
        tiles.first { $0.id == id }
    }
}
