package import RollboardCore

extension ClockOptions {
    /// A clock's YAML keys.
    static let keys = ["seconds", "date", "locale"]

    /// Reads `seconds`, `date` and `locale`; `nil` when one is wrong (reported).
    init?(reader: YAMLMappingReader) {
        self.init()
        for key in ["seconds", "date"] where reader.node(key) != nil {
            guard let flag = reader.bool(key) else { return nil }
            if key == "seconds" { seconds = flag } else { date = flag }
        }
        if let tag = reader.string("locale") {
            if let problem = KnownLocales.problem(with: tag) {
                reader.report("locale", problem)
                return nil
            }
            locale = tag
        }
    }
}
