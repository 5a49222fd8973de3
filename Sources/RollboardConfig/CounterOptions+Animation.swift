package import RollboardAnimation
package import RollboardCore

extension CounterOptions {
    /// The counter these options describe; throws for a format the configuration check would have refused.
    package func counter() throws(AnimationError) -> Counter {
        let affixes = style.affixes(prefix: prefix, suffix: suffix)
        let group = effectiveGroupSeparator
        let format = try NumberFormat(
            format: format, grouping: grouping, prefix: affixes.prefix, suffix: affixes.suffix,
            groupSeparator: group, decimalSeparator: style.effectiveDecimalSeparator,
            groupsOfThree: grouping == nil && !group.isEmpty, compact: compact)
        let easing = CounterEasing(rawValue: easing.rawValue) ?? .easeInOut
        return try Counter(configuration: CounterConfiguration(duration: duration, easing: easing, format: format))
    }

    /// The group separator in force: the tile's or its locale's, else the grouping pattern's own.
    package var effectiveGroupSeparator: String { style.groupSeparator(forPattern: grouping) }

    /// Why the counter cannot show `value`, by the counter's own rule (the one its live tile applies), or `nil`.
    func problem(showing value: Double) -> String? {
        do {
            let counter = try counter()
            do {
                _ = try counter.settle(value, after: nil)
                return nil
            } catch {
                guard error.kind == .outOfRange else { return error.message }
                let format = counter.configuration.format
                return "with \(format.fractionDigits) decimal places a counter shows magnitudes below "
                    + formatNumber(format.largestMagnitude)
            }
        } catch {
            return error.message
        }
    }

    /// Whether the counter can show `value` (finite, and small enough to format exactly with its decimals).
    public func canShow(_ value: Double) -> Bool {
        problem(showing: value) == nil
    }
}
