package import RollboardCore

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
        let trend = TrendOptions.read(reader)
        guard trend.ok else { return nil }
        self.trend = trend.trend
        if compact && columns.maximum < 3 + decimals {
            reader.report(
                "compact", "needs at least \(3 + decimals) columns (a mantissa up to 999 with \(decimals) decimals), got \(columns.maximum)")
            return nil
        }
    }
}
