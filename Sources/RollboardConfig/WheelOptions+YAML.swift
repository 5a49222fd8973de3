import RollboardAnimation
package import RollboardCore

extension WheelOptions {
    init?(reader: YAMLMappingReader) {
        guard let contents = reader.requireNonEmpty("contents", listing: "string", reader.displayNames) else { return nil }
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
        self.init(contents: contents, duration: duration ?? Wheel.defaultDuration, colors: colors)
    }
}
