import RollboardAnimation
package import RollboardCore

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
        let trend = TrendOptions.read(reader)
        guard trend.ok else { return nil }
        self.trend = trend.trend
    }
}
