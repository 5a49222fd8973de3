import Yams

extension DashboardConfiguration {
    static let keys = ["id", "title", "locale", "timeZone", "access", "motion", "grid", "tiles"]
    static let idLimit = 64

    /// Whether `id` may name a dashboard, tile or metric: 1 to 64 of `A-Z a-z 0-9 _ . -`, starting with a letter
    /// or digit (ids appear in URL paths).
    public static func isValidID(_ id: String) -> Bool {
        guard let first = id.unicodeScalars.first, id.unicodeScalars.count <= idLimit, isASCIILetterOrDigit(first)
        else { return false }
        return id.unicodeScalars.allSatisfy { isASCIILetterOrDigit($0) || $0 == "_" || $0 == "." || $0 == "-" }
    }

    static let idRule = "must be 1 to 64 letters, digits, '_', '.' or '-', starting with a letter or digit"

    /// Reads a dashboard from the root node of its file; `nil` when it has problems (reported).
    init?(node: Node, file: String, problems: ConfigurationProblems) {
        let before = problems.lines.count
        guard let reader = YAMLMappingReader(node, context: file, field: "", problems: problems) else { return nil }
        reader.rejectUnknownKeys(allowed: Self.keys)
        let id = reader.id(orNameOf: file)
        let title = reader.displayText("title", as: .name) ?? id
        let locale = reader.string("locale")
        if let locale, let problem = KnownLocales.problem(with: locale) {
            reader.report("locale", problem)
        }
        let timeZone = DashboardTimeZone.read("timeZone", from: reader)
        let access = reader.access("access")
        var motion = Motion.full
        if let text = reader.string("motion") {
            if let parsed = Motion(rawValue: text) {
                motion = parsed
            } else {
                reader.report("motion", "must be full or reduced, got \"\(text)\"")
            }
        }

        var columns = 4
        var rows: Int?
        let givenGrid = reader.node("grid") != nil
        if let grid = reader.mapping("grid") {
            grid.rejectUnknownKeys(allowed: ["columns", "rows"])
            columns = grid.int("columns", in: 1...24) ?? columns
            rows = grid.int("rows", in: 1...24)
        }

        var tiles: [TileConfiguration] = []
        if reader.require("tiles"), let nodes = reader.sequence("tiles") {
            if nodes.isEmpty { reader.report("tiles", "must not be empty") }
            for (index, tileNode) in nodes.enumerated() {
                let tile = TileConfiguration(
                    node: tileNode, index: index, file: file, gridColumns: columns, gridRows: rows, problems: problems
                )
                guard let tile else { continue }
                let context = "\(file): tile \"\(tile.id)\""
                if tiles.contains(where: { $0.id == tile.id }) {
                    problems.report(context, "id", "duplicate tile id")
                    continue
                }
                if let position = tile.position,
                    let other = tiles.first(where: { $0.position.map(position.overlaps) ?? false })
                {
                    problems.report(context, "position", "overlaps tile \"\(other.id)\"")
                }
                tiles.append(tile)
            }
        }

        let positionedRows = tiles.compactMap { $0.position.map { $0.row + $0.height - 1 } }.max() ?? 1
        let usedCells = tiles.reduce(0) { $0 + ($1.position.map { $0.width * $0.height } ?? 1) }
        if !givenGrid {
            // Without a grid the grid is sized to the tiles: as many columns as they need up to 4 (one tile fills the
            // screen, two share it), and never fewer than a placed tile reaches.
            let positionedColumns = tiles.compactMap { $0.position.map { $0.column + $0.width - 1 } }.max() ?? 1
            columns = Swift.max(positionedColumns, Swift.min(columns, usedCells))
        }
        let autoRows = Swift.max(positionedRows, (usedCells + columns - 1) / columns)
        if let rows, usedCells > columns * rows {
            problems.report(
                file, "grid", "\(tiles.count) tiles need \(usedCells) cells, more than \(columns) × \(rows)")
        }
        guard problems.lines.count == before else { return nil }
        self.init(
            id: id, title: title, grid: GridSize(columns: columns, rows: rows ?? autoRows), tiles: tiles, file: file,
            access: access, motion: motion, locale: locale)
        self.timeZone = timeZone
    }

    /// Whether `tag` looks like a BCP 47 language tag: a 2–3 letter language, then subtags of 1–8 letters or digits
    /// joined by `-` (`de`, `de-DE`, `zh-Hans-CN`).
    static func isLanguageTag(_ tag: String) -> Bool {
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false)
        guard let language = parts.first, (2...3).contains(language.count),
            language.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("A"..."Z").contains($0) })
        else { return false }
        return parts.dropFirst().allSatisfy { part in
            (1...8).contains(part.count) && part.unicodeScalars.allSatisfy { isASCIILetterOrDigit($0) }
        }
    }
}

/// Whether `scalar` is an ASCII letter or digit.
private func isASCIILetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar {
    case "a"..."z", "A"..."Z", "0"..."9": true
    default: false
    }
}
