package import RollboardCore
import Yams

extension YAMLMappingReader {
    /// A duration in seconds: a number (`30`, `2.5`) or a number with a unit (`500ms`, `30s`, `5m`, `1h`); `nil` when
    /// absent or bad (reported).
    func seconds(_ key: String, in range: ClosedRange<Double>) -> Double? {
        guard let value = node(key) else { return nil }
        guard case .scalar(let scalar) = value, let seconds = Self.parseDuration(scalar.string) else {
            report(key, "must be a duration such as 30s, 500ms, 5m or 1h, got \(value.shortDescription)")
            return nil
        }
        guard range.contains(seconds) else {
            report(
                key,
                "must be between \(formatNumber(range.lowerBound)) s and \(formatNumber(range.upperBound)) s, "
                    + "got \(formatNumber(seconds)) s")
            return nil
        }
        return seconds
    }

    /// `text` as seconds: a plain number is seconds; `ms`, `s`, `m` and `h` are units.
    static func parseDuration(_ text: String) -> Double? {
        let units: [(suffix: String, seconds: Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)]
        for unit in units where text.hasSuffix(unit.suffix) {
            guard let number = Double(text.dropLast(unit.suffix.count)), number.isFinite, number >= 0 else { continue }
            return number * unit.seconds
        }
        guard let number = Double(text), number.isFinite else { return nil }
        return number
    }
}
