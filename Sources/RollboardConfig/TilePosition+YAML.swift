
extension TilePosition {
    init?(reader: YAMLMappingReader, gridColumns: Int, gridRows: Int?) {
        reader.rejectUnknownKeys(allowed: ["column", "row", "width", "height"])
        let rowLimit = gridRows ?? 24
        reader.require("column")
        reader.require("row")
        guard let column = reader.int("column", in: 1...gridColumns), let row = reader.int("row", in: 1...rowLimit),
            let width = reader.int("width", in: 1...gridColumns) ?? (reader.node("width") == nil ? 1 : nil),
            let height = reader.int("height", in: 1...rowLimit) ?? (reader.node("height") == nil ? 1 : nil)
        else { return nil }
        if column + width - 1 > gridColumns {
            reader.report(
                "width", "the tile ends at column \(column + width - 1), past the grid's \(gridColumns) columns")
            return nil
        }
        if row + height - 1 > rowLimit {
            reader.report("height", "the tile ends at row \(row + height - 1), past the grid's \(rowLimit) rows")
            return nil
        }
        self.init(column: column, row: row, width: width, height: height)
    }
}
