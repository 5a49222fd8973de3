package import RollboardAnimation
package import RollboardCore

extension OdometerOptions {
    /// The odometer these options describe; throws for settings the configuration check would have refused.
    package func odometer() throws(AnimationError) -> Odometer {
        let columns: OdometerConfiguration.Columns =
            switch self.columns {
            case .fixed(let count): .fixed(count)
            case .growing(let maximum): .growing(maximum: maximum)
            }
        return try Odometer(
            configuration: OdometerConfiguration(
                columns: columns, decimals: decimals, maxDuration: maxDuration > 0 ? maxDuration : nil,
                compact: compact))
    }

    /// How the tile's KPI indicator writes a change: `decimals` places, the style's separators, grouped by three when
    /// the style groups.
    package func deltaFormat() throws(AnimationError) -> NumberFormat {
        let group = style.effectiveGroupSeparator
        return try NumberFormat(
            format: "%.\(decimals)f", groupSeparator: group, decimalSeparator: style.effectiveDecimalSeparator,
            groupsOfThree: !group.isEmpty)
    }

    /// Whether the tile can show `value`, by the odometer's own rule (the one its live tile applies): rounded to
    /// `decimals` places it fits in the columns (`|value| × 10^decimals < 10^columns`, the sign is drawn outside).
    public func canShow(_ value: Double) -> Bool {
        (try? odometer().settle(value, after: nil)) != nil
    }
}
