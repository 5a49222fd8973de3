
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
