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

    public init(
        id: String, title: String, grid: GridSize, tiles: [TileConfiguration], file: String,
        access: DashboardAccess? = nil
    ) {
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
