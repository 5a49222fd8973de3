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

    public init(id: String, title: String, grid: GridSize, tiles: [TileConfiguration], file: String) {
        self.id = id
        self.title = title
        self.grid = grid
        self.tiles = tiles
        self.file = file
    }

    /// The tile with the given id.
    public func tile(_ id: String) -> TileConfiguration? {
        tiles.first { $0.id == id }
    }
}

/// The number of columns and rows of a dashboard's grid.
public struct GridSize: Sendable, Equatable {
    public var columns: Int
    public var rows: Int

    public init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }
}

/// Where a tile sits in the grid: 1-based column and row of its top-left cell, and its size in cells.
public struct TilePosition: Sendable, Equatable {
    public var column: Int
    public var row: Int
    public var width: Int
    public var height: Int

    public init(column: Int, row: Int, width: Int = 1, height: Int = 1) {
        self.column = column
        self.row = row
        self.width = width
        self.height = height
    }

    /// Whether the two rectangles share a cell.
    public func overlaps(_ other: TilePosition) -> Bool {
        column < other.column + other.width && other.column < column + width
            && row < other.row + other.height && other.row < row + height
    }
}
