import RollboardAnimation
import Yams

extension DashboardConfiguration {
    static let keys = ["id", "title", "locale", "access", "motion", "grid", "tiles"]
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
        let stem = String(file.split(separator: "/").last?.split(separator: ".").first ?? "")
        let id = reader.string("id") ?? stem
        if !Self.isValidID(id) { reader.report("id", "\(Self.idRule), got \"\(id)\"") }
        let title = reader.string("title") ?? id
        let locale = reader.string("locale")
        if let locale, !Self.isLanguageTag(locale) {
            reader.report("locale", "must be a language tag such as de-DE or fr, got \"\(locale)\"")
        }
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
        let autoRows = Swift.max(positionedRows, (usedCells + columns - 1) / columns)
        if let rows, usedCells > columns * rows {
            problems.report(
                file, "grid", "\(tiles.count) tiles need \(usedCells) cells, more than \(columns) × \(rows)")
        }
        guard problems.lines.count == before else { return nil }
        self.init(
            id: id, title: title, grid: GridSize(columns: columns, rows: rows ?? autoRows), tiles: tiles, file: file,
            access: access, motion: motion, locale: locale)
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

extension TileConfiguration {
    static let commonKeys = ["id", "type", "title", "metric", "position", "staleAfter", "backlog", "queue", "maxLag"]
    static let optionKeys: [TileType: [String]] = [
        .odometer: ["columns", "maxColumns", "decimals", "prefix", "suffix", "maxDuration", "pad", "compact"] + NumberStyle.keys
            + KPIOptions.keys,
        .counter: ["format", "grouping", "easing", "duration", "prefix", "suffix", "compact"] + NumberStyle.keys
            + KPIOptions.keys,
        .wheel: ["contents", "duration", "colors"],
        .carousel: ["slides", "interval", "dotColor", "activeDotColor"],
        .text: ["text", "align"],
    ]

    /// Reads one item of a dashboard's `tiles`; `nil` when it has problems (reported).
    init?(node: Node, index: Int, file: String, gridColumns: Int, gridRows: Int?, problems: ConfigurationProblems) {
        let before = problems.lines.count
        var context = "\(file): tiles[\(index)]"
        if case .mapping(let mapping) = node, let id = mapping["id"]?.scalar?.string,
            DashboardConfiguration.isValidID(id)
        {
            context = "\(file): tile \"\(id)\""
        }
        guard let reader = YAMLMappingReader(node, context: context, field: "", problems: problems) else { return nil }
        reader.require("id")
        let id = reader.string("id") ?? ""
        if reader.node("id") != nil, !DashboardConfiguration.isValidID(id) {
            reader.report("id", "\(DashboardConfiguration.idRule), got \"\(id)\"")
        }

        var type: TileType?
        if reader.require("type"), let name = reader.string("type") {
            type = TileType(rawValue: name)
            if type == nil {
                reader.report(
                    "type",
                    "must be one of \(TileType.allCases.map(\.rawValue).joined(separator: ", ")), got \"\(name)\"")
            }
        }
        Self.rejectUnknownKeys(reader, type: type)

        let title = reader.string("title")
        let metric = reader.string("metric")
        if let metric, !DashboardConfiguration.isValidID(metric) {
            reader.report("metric", "\(DashboardConfiguration.idRule), got \"\(metric)\"")
        }
        var position: TilePosition?
        if let place = reader.mapping("position") {
            position = TilePosition(reader: place, gridColumns: gridColumns, gridRows: gridRows)
        }
        let staleAfter = reader.double("staleAfter", in: 1...31_536_000)
        let backlog = reader.int("backlog", in: 1...10_000)
        var queue: QueuePolicy?
        if let name = reader.string("queue") {
            queue = QueuePolicy(rawValue: name)
            if queue == nil { reader.report("queue", "must be one of fifo, latest, retarget, got \"\(name)\"") }
        }
        let maxLag = reader.double("maxLag", in: 0.1...3_600)
        if let type, !type.hasAnimationQueue {
            for key in ["queue", "maxLag"] where reader.node(key) != nil {
                reader.report(key, "\(type.rawValue) tiles have no animation queue")
            }
        }

        let options: TileOptions? =
            switch type {
            case .odometer: OdometerOptions(reader: reader).map(TileOptions.odometer)
            case .counter: CounterOptions(reader: reader).map(TileOptions.counter)
            case .wheel: WheelOptions(reader: reader).map(TileOptions.wheel)
            case .carousel: CarouselOptions(reader: reader).map(TileOptions.carousel)
            case .text: TextOptions(reader: reader).map(TileOptions.text)
            case nil: nil
            }
        let kpi = KPIOptions(reader: reader)
        guard problems.lines.count == before, let options, let kpi else { return nil }
        self.init(
            id: id, title: title, metric: metric, position: position, staleAfter: staleAfter, backlog: backlog,
            queue: queue, maxLag: maxLag, kpi: kpi, options: options
        )
    }

    private static func rejectUnknownKeys(_ reader: YAMLMappingReader, type: TileType?) {
        guard let type else {
            reader.rejectUnknownKeys(allowed: commonKeys + optionKeys.values.flatMap { $0 })
            return
        }
        let allowed = commonKeys + optionKeys[type, default: []]
        for key in reader.keys where !allowed.contains(key) {
            if let owner = TileType.allCases.first(where: { optionKeys[$0, default: []].contains(key) }) {
                reader.report(
                    key,
                    "is an option of \(owner.rawValue) tiles, not \(type.rawValue) tiles "
                        + "(\(type.rawValue) options: \(optionKeys[type, default: []].joined(separator: ", ")))"
                )
            }
        }
        let known = Set(commonKeys + optionKeys.values.flatMap { $0 })
        let unknownOnly = reader.keys.filter { !known.contains($0) }
        if !unknownOnly.isEmpty {
            for key in unknownOnly {
                let suggestion = allowed.min { editDistance(key, $0) < editDistance(key, $1) }
                if let suggestion, editDistance(key, suggestion) <= 2 {
                    reader.report(key, "unknown key (did you mean \"\(suggestion)\"?)")
                } else {
                    reader.report(key, "unknown key")
                }
            }
        }
    }
}

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

extension OdometerOptions {
    init?(reader: YAMLMappingReader) {
        let limit = Self.columnLimit
        let fixed = reader.int("columns", in: 1...limit)
        let maximum = reader.int("maxColumns", in: 1...limit)
        let decimals = reader.int("decimals", in: 0...Self.decimalsLimit) ?? 0
        if fixed != nil && maximum != nil {
            reader.report("maxColumns", "give either columns (fixed) or maxColumns (growing), not both")
            return nil
        }
        let columns: Columns = fixed.map(Columns.fixed) ?? .growing(max: maximum ?? limit)
        if decimals >= columns.maximum {
            let key = fixed != nil ? "columns" : "maxColumns"
            reader.report("decimals", "must be less than \(key) (\(columns.maximum)), got \(decimals)")
            return nil
        }
        guard let style = NumberStyle(reader: reader) else { return nil }
        self.init(
            columns: columns, decimals: decimals, prefix: reader.string("prefix") ?? "",
            suffix: reader.string("suffix") ?? "",
            maxDuration: reader.double("maxDuration", in: 0...3_600) ?? Self.defaultMaxDuration
        )
        self.style = style
        pad = reader.bool("pad") ?? false
        compact = reader.bool("compact") ?? false
        if compact && columns.maximum < 3 + decimals {
            reader.report(
                "compact", "needs at least \(3 + decimals) columns (a mantissa up to 999 with \(decimals) decimals), got \(columns.maximum)")
            return nil
        }
    }
}

extension CounterOptions {
    init?(reader: YAMLMappingReader) {
        self.init()
        guard let style = NumberStyle(reader: reader) else { return nil }
        self.style = style
        if let format = reader.string("format") {
            guard Self.decimals(ofFormat: format) != nil else {
                reader.report("format", "must be %d or %.Nf with N from 0 to 6, got \"\(format)\"")
                return nil
            }
            self.format = format
        }
        if let grouping = reader.string("grouping") {
            guard let places = Self.decimals(ofGrouping: grouping, decimalSeparator: style.effectiveDecimalSeparator)
            else {
                reader.report(
                    "grouping",
                    "must be a pattern of #, 0 and , with an optional .00 part, like ###,##0.00, got \"\(grouping)\""
                )
                return nil
            }
            let formatPlaces = Self.decimals(ofFormat: format) ?? 0
            guard places == formatPlaces else {
                reader.report(
                    "grouping",
                    "has \(places) decimal places but format \(format) has \(formatPlaces)"
                )
                return nil
            }
            self.grouping = grouping
        }
        if let name = reader.string("easing") {
            guard let easing = Easing(rawValue: name) else {
                reader.report("easing", "must be one of easeInOut, easeIn, easeOut, linear, got \"\(name)\"")
                return nil
            }
            self.easing = easing
        }
        if reader.node("duration") != nil {
            guard let duration = reader.double("duration", in: 0.3...60) else { return nil }
            self.duration = duration
        }
        prefix = reader.string("prefix") ?? ""
        suffix = reader.string("suffix") ?? ""
        compact = reader.bool("compact") ?? false
    }
}

extension WheelOptions {
    init?(reader: YAMLMappingReader) {
        guard reader.require("contents"), let contents = reader.strings("contents") else { return nil }
        guard !contents.isEmpty else {
            reader.report("contents", "must list at least one string")
            return nil
        }
        let duration = reader.double("duration", in: 0.05...60)
        if reader.node("duration") != nil && duration == nil { return nil }
        var colors: [String: String]?
        if let mapping = reader.mapping("colors") {
            var found: [String: String] = [:]
            for label in mapping.keys {
                guard contents.contains(label) else {
                    mapping.report(label, "is not one of the wheel's contents (\(contents.joined(separator: ", ")))")
                    return nil
                }
                guard let color = mapping.string(label), CarouselOptions.isColor(color) else {
                    mapping.report(label, "must be a colour like #rgb or #rrggbb")
                    return nil
                }
                found[label] = color
            }
            colors = found
        } else if reader.node("colors") != nil {
            return nil
        }
        self.init(contents: contents, duration: duration ?? 0.5, colors: colors)
    }
}

extension CarouselOptions {
    init?(reader: YAMLMappingReader) {
        guard reader.require("slides"), let nodes = reader.sequence("slides") else { return nil }
        guard !nodes.isEmpty else {
            reader.report("slides", "must list at least one slide")
            return nil
        }
        var slides: [CarouselSlide] = []
        for (index, node) in nodes.enumerated() {
            let field = "slides[\(index)]"
            guard let slide = YAMLMappingReader(node, context: reader.context, field: field, problems: reader.problems)
            else { return nil }
            slide.rejectUnknownKeys(allowed: ["image", "text"])
            switch (slide.string("image"), slide.string("text")) {
            case (let image?, nil):
                guard !image.isEmpty, !image.split(separator: "/").contains("..") else {
                    slide.report("image", "must be a path under public/ without '..', got \"\(image)\"")
                    return nil
                }
                slides.append(.image(image))
            case (nil, let text?):
                slides.append(.text(text))
            case (.some, .some):
                reader.report(field, "give either image or text, not both")
                return nil
            case (nil, nil):
                reader.report(field, "needs an image or a text")
                return nil
            }
        }
        let interval = reader.double("interval", in: 0.5...3_600)
        if reader.node("interval") != nil && interval == nil { return nil }
        self.init(slides: slides, interval: interval ?? 2)
        for key in ["dotColor", "activeDotColor"] {
            guard let color = reader.string(key) else { continue }
            guard Self.isColor(color) else {
                reader.report(key, "must be a colour like #rgb or #rrggbb, got \"\(color)\"")
                return nil
            }
            if key == "dotColor" { dotColor = color } else { activeDotColor = color }
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

extension NumberStyle {
    /// The YAML keys of a number style.
    static let keys = ["locale", "groupSeparator", "decimalSeparator", "currency"]

    /// Reads `locale`, `groupSeparator`, `decimalSeparator` and `currency`; `nil` when one is wrong (reported).
    init?(reader: YAMLMappingReader) {
        self.init()
        var valid = true
        if let name = reader.string("locale") {
            locale = NumberLocale(name)
            if locale == nil {
                reader.report(
                    "locale",
                    "must be one of \(NumberLocale.all.map(\.identifier).joined(separator: ", ")), got \"\(name)\"")
                valid = false
            }
        }
        for key in ["groupSeparator", "decimalSeparator"] {
            guard let separator = reader.string(key) else { continue }
            if let problem = Self.problem(separator: separator) {
                reader.report(key, problem)
                valid = false
            } else if key == "groupSeparator" {
                groupSeparator = separator
            } else if separator.isEmpty {
                reader.report(key, "must not be empty")
                valid = false
            } else {
                decimalSeparator = separator
            }
        }
        if valid, effectiveGroupSeparator == effectiveDecimalSeparator {
            reader.report("groupSeparator", "must differ from the decimal separator \"\(effectiveDecimalSeparator)\"")
            valid = false
        }
        currency = reader.string("currency")
        guard valid else { return nil }
    }
}

extension KPIOptions {
    /// The YAML keys of goal, thresholds and change arrow.
    static let keys = ["goal", "warning", "critical", "lowerIsBetter", "delta", "baseline"]

    /// Reads the goal, thresholds and arrow; `nil` when one is wrong (reported).
    init?(reader: YAMLMappingReader) {
        let range = -1e15...1e15
        self.init(
            goal: reader.double("goal", in: range), warning: reader.double("warning", in: range),
            critical: reader.double("critical", in: range), lowerIsBetter: reader.bool("lowerIsBetter") ?? false)
        for key in ["goal", "warning", "critical", "lowerIsBetter"] where reader.node(key) != nil {
            let read: Bool =
                switch key {
                case "goal": goal != nil
                case "warning": warning != nil
                case "critical": critical != nil
                default: reader.bool(key) != nil
                }
            if !read { return nil }
        }
        if let violation = orderViolation {
            reader.report(violation.field, violation.problem)
            return nil
        }
        let baseline = reader.double("baseline", in: range)
        if reader.node("baseline") != nil && baseline == nil { return nil }
        switch reader.string("delta") {
        case nil: delta = baseline.map(Delta.baseline) ?? .none
        case "none": delta = .none
        case "previous": delta = .previous
        case "baseline":
            guard let baseline else {
                reader.report("delta", "baseline needs a baseline value")
                return nil
            }
            delta = .baseline(baseline)
        case let other?:
            reader.report("delta", "must be one of previous, baseline, none, got \"\(other)\"")
            return nil
        }
        if baseline != nil, case .previous = delta {
            reader.report("baseline", "is only used with delta: baseline")
            return nil
        }
    }
}
