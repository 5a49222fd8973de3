
/// The number of columns and rows of a dashboard's grid.
public struct GridSize: Sendable, Equatable {
    public var columns: Int
    public var rows: Int
}
